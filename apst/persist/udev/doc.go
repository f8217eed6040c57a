// Package udev reads udev rules and tells what they do to an NVMe controller.
//
// ParseRules reads rules as udev does (every key and operator, line
// continuations, e"..." and i"..." strings, GOTO and LABEL), refusing what
// udev would refuse or ignore (ErrRuleSyntax); Rules.Apply runs them
// against a Drive, what a rule sees of one controller and its PCI
// function, and returns the attribute writes they make, so that a setting
// meant to make an APST bound last can be checked on the drives it should
// reach. Matching follows udev's: alternatives split on |, each a
// fnmatch(3) glob (case-insensitive for an i"..." value).
//
// It is pure: no I/O (a Drive answers from its fields, or from the Exists
// function the caller gives), no mutable globals, safe for concurrent use.
package udev
