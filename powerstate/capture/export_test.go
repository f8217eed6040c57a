package capture

// looksQuotedPrintable exports looksQuotedPrintable to the external tests,
// which refuse to write what the readers would take for a mail body.
var LooksQuotedPrintable = looksQuotedPrintable
