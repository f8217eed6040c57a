// Package doclinks holds a test of the module's documentation: every
// doc link in a doc comment resolves to a declaration, in the same package
// or in the package it names, and no bracketed identifier is left
// unresolved as plain text. It has no code of its own.
package doclinks
