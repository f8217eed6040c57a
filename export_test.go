package nvmeapst

import "context"

// ScrapeAsInspect scrapes s the way System.Metrics does where no fast path
// exists: through the controllerRead Inspect uses. The tests hold the fast path to it.
func ScrapeAsInspect(ctx context.Context, s *System) (*MetricsSnapshot, error) {
	var snap MetricsSnapshot
	err := s.scrape(ctx, &snap)
	return &snap, err
}

// CheckManifestSize is Collect's refusal of a manifest of n bytes for ctls
// controllers.
func CheckManifestSize(n, ctls int) error { return checkManifestSize(n, ctls) }

// BundleFileError is Collect's error for err, met writing a file of a
// bundle being written into work for the destination dir (fill: work is
// dir, filled in place).
func BundleFileError(dir, work string, fill bool, err error) error {
	w := &bundleWriter{dir: dir, work: work, fill: fill}
	return w.failed(err)
}
