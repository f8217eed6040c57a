package sysfs_test

import (
	iofs "io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/nvmeapst/nvmeapst/sysfs"
)

// TestSessionReadsAsFS holds a session to what the FS reads: every file and
// directory of the fixture trees, and paths that do not exist, read through
// a session give the same bytes and the same error message as a plain
// read, twice.
func TestSessionReadsAsFS(t *testing.T) {
	for _, root := range []string{"../testdata/sys", "../testdata/bundle/sys", "testdata/v7", "testdata/v5.10", "testdata/laptop-tlp"} {
		if _, err := os.Stat(root); err != nil {
			continue
		}
		t.Run(root, func(t *testing.T) {
			fs := newFS(t, root)
			var paths []string
			require.NoError(t, filepath.WalkDir(root, func(p string, d iofs.DirEntry, err error) error {
				require.NoError(t, err)
				rel, err := filepath.Rel(root, p)
				require.NoError(t, err)
				if rel != "." {
					paths = append(paths, filepath.ToSlash(rel))
				}
				return nil
			}))
			paths = append(paths, "class/nvme/nvme0/absent", "class/nvme/nvme9/model", "absent/dir/file", "class/nvme/nvme0/model/below")
			sess, end := fs.Session()
			defer end()
			for _, rel := range paths {
				want, wantErr := fs.ReadFile(rel)
				for range 2 {
					got, err := sess.ReadFile(rel)
					if wantErr != nil {
						require.Error(t, err, rel)
						assert.Equal(t, wantErr.Error(), err.Error(), rel)
						assert.Equal(t, os.IsNotExist(wantErr), os.IsNotExist(err), rel)
						continue
					}
					require.NoError(t, err, rel)
					assert.Equal(t, want, got, rel)
				}
			}
			// The methods that read many files agree too.
			names, err := fs.ControllerNames()
			require.NoError(t, err)
			for range 2 {
				got, err := sess.ControllerNames()
				require.NoError(t, err)
				assert.Equal(t, names, got)
			}
			wantDMI, wantErr := fs.DMI()
			gotDMI, gotErr := sess.DMI()
			assert.Equal(t, wantDMI, gotDMI)
			assert.Equal(t, wantErr, gotErr)
			wantMP, wantErr := fs.ModuleParams()
			gotMP, gotErr := sess.ModuleParams()
			assert.Equal(t, wantMP, gotMP)
			assert.Equal(t, wantErr, gotErr)
			for _, n := range names {
				want, wantErr := fs.Controller(n)
				got, err := sess.Controller(n)
				assert.Equal(t, want, got)
				assert.Equal(t, wantErr, err)
				wf, we, werr := fs.PowerFacts(n)
				gf, ge, gerr := sess.PowerFacts(n)
				assert.Equal(t, wf, gf)
				assert.Equal(t, we, ge)
				assert.Equal(t, werr, gerr)
			}
		})
	}
}

// TestSessionReadsOnce counts the reads that reach the tree: a session
// reads each path once, however often it is asked; after end it reads
// anew.
func TestSessionReadsOnce(t *testing.T) {
	var mu sync.Mutex
	count := map[string]int{}
	fs := newFS(t, "../testdata/sys").WithReadHook(func(rel string) {
		mu.Lock()
		count[rel]++
		mu.Unlock()
	})
	_, err := fs.Controller("nvme0")
	require.NoError(t, err)
	_, err = fs.Controller("nvme0")
	require.NoError(t, err)
	assert.Equal(t, 2, count["class/nvme/nvme0/model"], "without a session, every call reads")

	clear(count)
	sess, end := fs.Session()
	for range 3 {
		_, err := sess.Controller("nvme0")
		require.NoError(t, err)
		_, _, err = sess.PowerFacts("nvme0")
		require.NoError(t, err)
	}
	require.NotEmpty(t, count)
	for rel, n := range count {
		assert.Equal(t, 1, n, rel)
	}
	assert.Equal(t, 1, count["class/nvme/nvme0/state"], "Controller and PowerFacts share the state file")
	end()
	end()
	clear(count)
	_, err = sess.Controller("nvme0")
	require.NoError(t, err, "an ended session reads as the FS")
	assert.Equal(t, 1, count["class/nvme/nvme0/model"])
}

// TestSessionZero: the zero FS has no session to open and still refuses.
func TestSessionZero(t *testing.T) {
	sess, end := sysfs.FS{}.Session()
	defer end()
	_, err := sess.ReadFile("class/nvme")
	require.ErrorIs(t, err, sysfs.ErrZeroFS)
}

// TestParseNamespaceEntry holds the hand-written matcher to the pattern it
// replaced, ^nvme([0-9]+)(?:c[0-9]+)?n([0-9]+)$.
func TestParseNamespaceEntry(t *testing.T) {
	re := regexp.MustCompile(`^nvme([0-9]+)(?:c[0-9]+)?n([0-9]+)$`)
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.OneOf(
			rapid.StringMatching(`nvme[0-9]{0,3}(c[0-9]{0,2})?n[0-9]{0,3}`),
			rapid.StringMatching(`[nvmec0-9x]{0,12}`),
		).Draw(t, "name")
		ctrl, ns, ok := sysfs.ParseNamespaceEntry(s)
		m := re.FindStringSubmatch(s)
		if m == nil {
			if ok {
				t.Fatalf("%q: matched, the pattern does not", s)
			}
			return
		}
		if !ok || ctrl != m[1] || ns != m[2] {
			t.Fatalf("%q: got %q %q %v, the pattern %q %q", s, ctrl, ns, ok, m[1], m[2])
		}
	})
}

// TestSessionConcurrently: one session read from several goroutines gives
// each the answer a plain read gives. Run with -race.
func TestSessionConcurrently(t *testing.T) {
	fs := newFS(t, "../testdata/sys")
	want, wantErr := fs.Controller("nvme0")
	wantFacts, _, err := fs.PowerFacts("nvme0")
	require.NoError(t, err)
	sess, end := fs.Session()
	defer end()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 10 {
				got, err := sess.Controller("nvme0")
				assert.Equal(t, want, got)
				assert.Equal(t, wantErr, err)
				f, _, err := sess.PowerFacts("nvme0")
				assert.NoError(t, err)
				assert.Equal(t, wantFacts, f)
			}
		})
	}
	wg.Wait()
}
