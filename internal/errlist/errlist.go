// Package errlist joins errors into one whose message reads on one line,
// as a problem or a command's error line shows it: errors.Join's newline
// between messages would be escaped there as a literal "\n".
package errlist

import "strings"

// Join returns an error that wraps the errors of errs that are not nil, as
// errors.Join does (errors.Is and errors.As see each of them), whose
// message joins theirs with "; ". It returns nil when every error is nil,
// and the error itself when only one is not.
func Join(errs ...error) error {
	var kept []error
	for _, err := range errs {
		if err != nil {
			kept = append(kept, err)
		}
	}
	switch len(kept) {
	case 0:
		return nil
	case 1:
		return kept[0]
	}
	return &joined{errs: kept}
}

// joined is what Join returns for two errors or more.
type joined struct{ errs []error }

func (j *joined) Error() string {
	var b strings.Builder
	for i, err := range j.errs {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(err.Error())
	}
	return b.String()
}

func (j *joined) Unwrap() []error { return j.errs }
