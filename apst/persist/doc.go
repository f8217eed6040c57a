// Package persist turns a chosen APST latency bound into the settings that
// make it last, and reads such settings back.
//
// A bound (ps_max_latency_us) reaches a controller two ways: at probe time
// from nvme_core.default_ps_max_latency_us (kernel command line, modprobe.d
// or /sys/module/nvme_core/parameters, for the controllers probed after it
// is set), and at any time through the controller's
// /sys/class/nvme/nvmeN/power/pm_qos_latency_tolerance_us (udev rules,
// systemd-tmpfiles, tuned). This package
//
//   - chooses one value in a range of equivalent bounds (Choose): every
//     bound in a range of analysis.Recommend programs the same table;
//   - renders a Setting (a bound and a Scope: every controller, a model
//     exact or glob, a PCI vendor:device, one serial number) in each Form
//     (Render), each output naming what it affects and how to undo it;
//   - renders the pair of udev rules that switch between an AC and a
//     battery bound on a power-supply change (RenderPowerSupply);
//   - parses udev rules (ParseRules: every key and operator udev knows,
//     nothing else), the kernel and module parameters of command lines,
//     GRUB, systemd-boot, NixOS, TrueNAS and modprobe.d lines
//     (ParseArguments; ParseDefaults keeps nvme_core's bound), says which drives a rule file reaches and what it
//     writes there (Rules.Apply), and recognises the common mistakes
//     (Check): the PCI function's device/power/ path, a low default taken
//     for "deeper states", a global 0, a rule keyed on one serial number.
//
// It is pure: no I/O, no mutable globals; every function is safe for
// concurrent use. Writing the files is the caller's (apstctl persist writes
// them through its atomic writer).
package persist
