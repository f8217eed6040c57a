// Package ioctltest provides a fake NVMe controller for tests of code that
// uses ioctl.Controller, so that it runs without hardware or privileges.
//
// A [Device] serves fixtures (an Identify Controller image, an APST feature,
// a power management feature) and can fail any command with an injected
// error, such as the *ioctl.CommandError a kernel returns for an
// unprivileged Get Features ([PermissionError]) or a controller that
// rejects a command ([StatusError]). It is safe for concurrent use and
// counts the commands it serves.
package ioctltest
