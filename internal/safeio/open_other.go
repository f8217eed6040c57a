//go:build !unix

package safeio

import "os"

// openFlags is empty where the system has no O_NONBLOCK.
const openFlags = 0

// preOpenCheck refuses a path that is not a regular file before it is
// opened, since nothing else keeps the open from blocking.
func preOpenCheck(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	return checkRegular(path, fi)
}

// preOpenCheckRoot is preOpenCheck for a name inside root.
func preOpenCheckRoot(root *os.Root, name string) error {
	fi, err := root.Stat(name)
	if err != nil {
		return err
	}
	return checkRegular(name, fi)
}

// clearNonblock has nothing to clear.
func clearNonblock(*os.File) error { return nil }

// isUnopenable is false: the path was checked before it was opened.
func isUnopenable(error) bool { return false }

// isAgain is false: no read returns EAGAIN here.
func isAgain(error) bool { return false }

// readFile opens path after checking it, and reads it.
func readFile(buf []byte, path string, limit int64) ([]byte, error) {
	if err := preOpenCheck(path); err != nil {
		return buf[:0], err
	}
	f, fi, err := openChecked(path)
	if err != nil {
		return buf[:0], err
	}
	defer f.Close()
	return readLoop(fileReader{f}, buf, fi.Size(), limit, path)
}

// readRegular is readFile: a walk's listing saves no check here.
func readRegular(buf []byte, path string, limit int64) ([]byte, error) {
	return readFile(buf, path, limit)
}

// syncDir does nothing: directories cannot be synced here.
func syncDir(string) error { return nil }
