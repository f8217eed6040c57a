// Package zerocheck checks that the zero value of every exported struct
// type of the library is useful or refused, never harmful.
//
// Generate reads the library's packages (every package of the module
// outside examples, internal, testdata and docs) with go/parser and writes
// one call per exported function and method whose receiver or parameters
// include an exported struct type of the module, by value or pointer:
//
//   - the receiver and every struct argument are zero values (T{}, and &T{}
//     for *T: a nil pointer is not a zero value of T); a variadic ...T of a
//     struct type gets one zero T;
//   - other arguments are what a caller would pass that does nothing by
//     itself: context.Background(), an empty strings.Reader, io.Discard,
//     "", 0, nil slices, maps and interfaces, an empty iterator, and for a
//     function a literal that returns zero results (its error, if any, an
//     error);
//   - generic functions and methods, functions declared only in Linux
//     files, and parameters of unexported or unknown types are listed in
//     zeroSkipped with the reason instead.
//
// go run ./internal/tools/zerocalls writes the calls to File
// (zero_calls_test.go). Its tests then check:
//
//   - TestZeroValues: no call panics or hangs (each runs under recover,
//     with a timeout); an error a call returns starts with the name of the
//     package called (passThrough lists the known exceptions, each with
//     its reason); what each call did (ok, error) is kept in
//     testdata/outcomes.txt (-update rewrites it), so that a zero value
//     that turns from refused to accepted, or back, shows in review;
//   - TestGeneratedUpToDate: the committed calls are what Generate writes
//     today, so an exported function added or changed without rerunning the
//     generator fails the test, and a new one is covered once it is rerun;
//   - TestZeroSettingsHarmless: no setting apst/persist renders from zero
//     values (Render of a zero Setting in every form, RenderPowerSupply,
//     UdevRule and UdevMatch of the zero Scope, a zero Fleet, Resolve of a
//     zero Goal) turns APST off for every controller or reaches every
//     controller, read back with persist's own parsers and checkers
//     (ParseRules and CheckRules' global-zero, ParseDefaults, Rules.Apply,
//     ParseSysfsWrites); a refusal wraps one of the sentinels and starts with
//     "persist:".
//
// Calls known to panic or to render a harmful setting that a change under
// way fixes are listed in expectedPanics and expectedHarms, each with its
// reason; the tests fail once such a call no longer panics or harms, so
// that the entry is removed.
package zerocheck
