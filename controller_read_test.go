package nvmeapst_test

import (
	"context"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	nvmeapst "github.com/nvmeapst/nvmeapst"
	"github.com/nvmeapst/nvmeapst/apst"
	"github.com/nvmeapst/nvmeapst/internal/testfixture"
	"github.com/nvmeapst/nvmeapst/ioctl"
)

// readCounter counts what one call reads: every sysfs file and listing
// (through the FS's read hook) and every admin command sent, per
// controller.
type readCounter struct {
	mu       sync.Mutex
	files    map[string]int
	commands map[string]int
	opens    map[string]int
}

func newReadCounter() *readCounter {
	return &readCounter{files: map[string]int{}, commands: map[string]int{}, opens: map[string]int{}}
}

// wrap makes s count into c.
func (c *readCounter) wrap(s *nvmeapst.System) {
	s.FS = s.FS.WithReadHook(func(rel string) {
		c.mu.Lock()
		c.files[rel]++
		c.mu.Unlock()
	})
	if inner := s.Opener; inner != nil {
		s.Opener = nvmeapst.OpenerFunc(func(ctx context.Context, name string) (ioctl.Controller, error) {
			c.mu.Lock()
			c.opens[name]++
			c.mu.Unlock()
			d, err := inner.OpenController(ctx, name)
			if err != nil {
				return nil, err
			}
			return &countingController{Controller: d, c: c, name: name}, nil
		})
	}
}

func (c *readCounter) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.files)
	clear(c.commands)
	clear(c.opens)
}

func (c *readCounter) command(name, cmd string) {
	c.mu.Lock()
	c.commands[name+" "+cmd]++
	c.mu.Unlock()
}

// assertOnce asserts that every file, listing and command was read at
// most once, and returns the number of sysfs paths read.
func (c *readCounter) assertOnce(t *testing.T, what string) int {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	var twice []string
	for rel, n := range c.files {
		if n > 1 {
			twice = append(twice, rel)
		}
	}
	for cmd, n := range c.commands {
		if n > 1 {
			twice = append(twice, cmd)
		}
	}
	for name, n := range c.opens {
		if n > 1 {
			twice = append(twice, "open "+name)
		}
	}
	sort.Strings(twice)
	assert.Empty(t, twice, "%s read these more than once", what)
	return len(c.files)
}

// countingController counts the commands sent to a controller.
type countingController struct {
	ioctl.Controller
	c    *readCounter
	name string
}

func (d *countingController) IdentifyController(ctx context.Context) ([]byte, error) {
	d.c.command(d.name, "identify")
	return d.Controller.IdentifyController(ctx)
}

func (d *countingController) GetAPST(ctx context.Context) (apst.Feature, error) {
	d.c.command(d.name, "get-features 0c")
	return d.Controller.GetAPST(ctx)
}

func (d *countingController) GetPowerManagement(ctx context.Context) (ioctl.PowerManagement, error) {
	d.c.command(d.name, "get-features 02")
	return d.Controller.GetPowerManagement(ctx)
}

func (d *countingController) HealthLog(ctx context.Context) ([]byte, error) {
	d.c.command(d.name, "get-log-page 02")
	h, ok := d.Controller.(ioctl.HealthLogger)
	if !ok {
		return nil, ioctl.ErrUnsupported
	}
	return h.HealthLog(ctx)
}

// TestReadsOnce holds every report to one read of each controller: within
// one call of Inspect, Diagnose or Metrics, no sysfs file or listing is
// read twice, each controller is opened once, and each admin command is
// sent once; Diagnose reads the controller it diagnoses once (it used to
// run Inspect beside its own reads of the power facts).
func TestReadsOnce(t *testing.T) {
	bundle := func(t *testing.T) *nvmeapst.System {
		s, _, err := nvmeapst.OpenBundle(testfixture.Path("bundle"))
		require.NoError(t, err)
		return s
	}
	for _, tc := range []struct {
		name string
		sys  func(t *testing.T) *nvmeapst.System
		call func(ctx context.Context, s *nvmeapst.System) error
		// want are paths that must have been read (once).
		want []string
	}{
		{"inspect bundle", bundle, func(ctx context.Context, s *nvmeapst.System) error {
			_, err := s.Inspect(ctx)
			return err
		}, []string{"class/nvme/nvme0/model", "class/nvme/nvme2/power/pm_qos_latency_tolerance_us", "module/nvme_core/parameters/default_ps_max_latency_us"}},
		{"inspect fixture", func(t *testing.T) *nvmeapst.System { return bundleMachine(t) }, func(ctx context.Context, s *nvmeapst.System) error {
			_, err := s.Inspect(ctx)
			return err
		}, []string{"class/nvme/nvme1/model"}},
		{"diagnose tlp", func(t *testing.T) *nvmeapst.System { return tlpSystem(t) }, func(ctx context.Context, s *nvmeapst.System) error {
			_, err := s.Diagnose(ctx, nvmeapst.DiagnoseOptions{})
			return err
		}, []string{"class/nvme/nvme0/state", "class/nvme/nvme0/model", "module/pcie_aspm/parameters/policy"}},
		{"diagnose bundle", bundle, func(ctx context.Context, s *nvmeapst.System) error {
			_, err := s.Diagnose(ctx, nvmeapst.DiagnoseOptions{Controller: "nvme2"})
			return err
		}, []string{"class/nvme/nvme2/state", "class/nvme/nvme2/model"}},
		{"metrics bundle", bundle, func(ctx context.Context, s *nvmeapst.System) error {
			_, err := nvmeapst.ScrapeAsInspect(ctx, s)
			return err
		}, []string{"class/nvme/nvme0/state"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.sys(t)
			c := newReadCounter()
			c.wrap(s)
			for i := range 2 { // the second call reads again, once
				c.reset()
				require.NoError(t, tc.call(t.Context(), s))
				n := c.assertOnce(t, tc.name)
				require.Positive(t, n)
				t.Logf("call %d: %d sysfs paths, %d commands", i, n, len(c.commands))
				for _, w := range tc.want {
					assert.Equal(t, 1, c.files[w], "call %d: %s", i, w)
				}
				for cmd, n := range c.commands {
					assert.Equal(t, 1, n, cmd)
				}
				if strings.HasPrefix(tc.name, "diagnose") {
					assert.Len(t, c.opens, 1, "Diagnose opens the controller it diagnoses, once")
				}
			}
		})
	}
}

// TestSystemConcurrently: one System answers Inspect, Diagnose, Metrics
// and a MetricsReader's scrape from several goroutines at once (each call
// has its own read; readMemo and sysfs's interned strings are shared),
// and each answer is the one it gives alone. Run with -race.
func TestSystemConcurrently(t *testing.T) {
	s, _, err := nvmeapst.OpenBundle(testfixture.Path("bundle"))
	require.NoError(t, err)
	ctx := t.Context()
	wantReport, err := s.Inspect(ctx)
	require.NoError(t, err)
	wantDiag, err := s.Diagnose(ctx, nvmeapst.DiagnoseOptions{Controller: "nvme2"})
	require.NoError(t, err)
	wantMetrics, err := s.Metrics(ctx)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 5 {
				r, err := s.Inspect(ctx)
				if assert.NoError(t, err) {
					assert.Equal(t, wantReport, r)
				}
				d, err := s.Diagnose(ctx, nvmeapst.DiagnoseOptions{Controller: "nvme2"})
				if assert.NoError(t, err) {
					assert.Equal(t, wantDiag.Summary, d.Summary)
					assert.Equal(t, wantDiag.Facts, d.Facts)
				}
				m, err := s.Metrics(ctx)
				if assert.NoError(t, err) {
					assert.Equal(t, wantMetrics, m)
				}
			}
		})
	}
	wg.Wait()
}
