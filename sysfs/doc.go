// Package sysfs reads and sets the NVMe APST state Linux exposes in sysfs.
//
// That is the controllers under class/nvme, their PM QoS latency
// tolerance, the nvme_core module parameters, the DMI strings the kernel's
// quirk rules read, and the proposed CPU latency QoS knobs some patched
// kernels carry.
//
// An [FS] is rooted at a mount point ([DefaultMountPoint], "/sys", on a live
// system), so the same code reads a live machine, a bundle captured on another
// machine, or a fixture tree in testdata. Build one with [NewFS]: the zero FS
// refuses every call ([ErrZeroFS]) rather than read relative to the working
// directory. The package uses only the standard library: it builds on every
// GOOS and keeps no global state.
//
// # Reads
//
// Every path is resolved inside the root (os.Root), following symbolic links
// only while they stay in the tree, so a copied tree cannot point a read at a
// file elsewhere. Every attribute is opened without blocking (O_NONBLOCK
// where the system has it, then fstat), must be a regular file (a named pipe,
// socket or device is an error wrapping [ErrNotRegular], never a hang), and
// is read with a bounded read of less than [MaxAttributeSize] bytes, then
// trimmed (a PCI function's binary config file is read whole, up to its
// 4096 bytes, untrimmed, and decoded by package diagnose; reading it
// resumes a runtime-suspended bridge above the function, so PowerFacts
// reads it after every power file). Errors name the path, start with
// "sysfs: " and keep the *fs.PathError, so errors.Is(err, os.ErrNotExist) and errors.Is(err,
// os.ErrPermission) work. No single read blocks; [FS.ControllersContext]
// also stops between controllers when its context is done.
//
// Absent and unreadable are never confused. A file that does not exist
// (os.ErrNotExist) is absent, with the meaning below; any other failure
// (permission, not a regular file, a link leaving the tree, a file a
// snapshot records as unreadable) is an error, and it costs only the value
// it feeds: [FS.Controller] returns the rest of the controller with the
// failed attributes in [Controller.Unreadable], [FS.ModuleParams] the other
// parameters with the bad ones in [ModuleParams.Unreadable], [FS.DMI] the
// other strings. A copy of a tree says what it could not read, and which
// controllers it holds, through [FS.WithSnapshot].
//
// Absent attributes are not errors where their absence means something: a
// controller without power/pm_qos_latency_tolerance_us is one the kernel has
// APST disabled for (apst_enabled is false: APSTA is 0, or a NO_APST quirk
// applies without force_apst), and [Controller.HasTolerance] says so; nvme_core
// without the apst_* parameters is a kernel older than v5.14
// ([ModuleParams.Generation]); a missing CPU latency knob is a kernel without
// the patch (a nil pointer); a missing quirks file or nvme quirks parameter
// is a kernel older than 7.0 (the quirks file also exists on 6.18.52 and later
// 6.18.y, nvme.quirks= does not; [Controller.HasQuirks], [QuirksParam.Present]).
// A pcie controller without device/vendor is the exception: its PCI ID is
// unknown, which [Controller.PCIGap] states.
//
// # Paths read
//
// Relative to the root:
//
//	class/nvme/NAME/{model,serial,firmware_rev,transport,state,address,cntlid}
//	class/nvme/NAME/device/{vendor,device,subsystem_vendor,subsystem_device}   (the PCI function, through the device link)
//	class/nvme/NAME/power/pm_qos_latency_tolerance_us
//	class/nvme/NAME/quirks                                                     (7.0 and later, and 6.18.52: the quirks in force)
//	class/nvme/NAME/cpu_latency_us                                             (nvme-pci CPU latency patch)
//	class/nvme/NAME/NS                                                         (namespace entries: nvmeXnY, or nvmeXcYnZ with native multipath)
//	block/DISK/{cpu_lat_limit_us,cpu_lat_timeout_ms}                           (block-layer CPU latency patch)
//	module/nvme_core/parameters/{default_ps_max_latency_us,force_apst,apst_*}
//	module/nvme/parameters/quirks                                              (7.0 and later: nvme.quirks=)
//	class/dmi/id/{sys_vendor,product_name,board_vendor,board_name}
//	class/nvme/NAME/diag/{reset_count,reconnect_count,command_error_count}    (7.2 and later; FS.Power)
//	module/pcie_aspm/parameters/policy                                         (the [word] in force; FS.Power)
//	FUNC/{d3cold_allowed,power/control,power/runtime_status,power_state}       (FS.Power: FUNC is the controller's
//	FUNC/link/{l0s_aspm,l1_aspm,l1_1_aspm,l1_2_aspm,l1_1_pcipm,l1_2_pcipm,clkpm}  PCI function and each bridge above it)
//
// FS.Power finds the PCI functions by resolving class/nvme/NAME/device
// inside the tree (a snapshot supplies the folder for a copy whose links
// are folders); a file the running kernel does not have is Present false,
// "not exposed here", never an error.
//
// The block-layer knobs are disk attributes (the patch adds them to
// block/genhd.c, next to "range" and "removable"), so they sit in the disk's
// own folder, /sys/block/DISK/, not under queue/. DISK is the namespace entry
// found in the controller's folder; a multipath path entry nvmeXcYnZ maps to
// its head disk nvmeXnZ, the block device users see. [FS.Files] lists the
// paths that exist for a controller, for tools that copy them into a bundle.
//
// # Writes
//
// [FS.SetLatencyTolerance], [FS.SetCPULatency], [FS.SetDiskCPULatencyLimit]
// and [FS.SetDiskCPULatencyTimeout] validate the value by the kernel's rules
// before anything is written (an invalid value is refused with the reason and
// the file is untouched), write it in one write, read it back and report the
// old and new values; a read-back that differs from what was written is an
// error wrapping [ErrReadBack].
package sysfs
