/* floor: the read floor of a fleet survey. Walks the trees given with
 * nftw and open/read/closes every regular file into a 64 KiB buffer;
 * prints the number of files and bytes. What "apstctl survey DIR" is
 * measured against (examples/fleetbench/bench.sh): any survey must at
 * least do this.
 *
 * floor -r N DIR: the floor of nvmeapst's System.Inspect of a bundle, which
 * reads every file of it once a call but the manifest (read by OpenBundle)
 * and the empty ".keep" placeholders. It lists those files once, then
 * reads them all N times two ways, in turn, and prints the mean time of a
 * round in microseconds for each (as a Go benchmark's ns/op is a mean): lstat, open, read and close of each file by its
 * full path (what a reader must do that never opens a device node, a FIFO
 * or a socket: it looks before it opens), and open, read and close alone
 * (no check at all: the bare floor).
 * Build: gcc -O2 -o floor floor.c */
#define _XOPEN_SOURCE 700
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char buf[64 << 10];
static unsigned long long files, bytes;
static int repeat; /* -r: list the files Inspect reads into paths */
#define MAXPATHS 4096
static char *paths[MAXPATHS];
static int npaths;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
	(void)st;
	if (type != FTW_F)
		return 0;
	if (repeat) {
		if (path[ftw->base] != '.' && strcmp(path + ftw->base, "manifest.json") != 0 && npaths < MAXPATHS)
			paths[npaths++] = strdup(path);
		return 0;
	}
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0)
		bytes += (unsigned long long)n;
	close(fd);
	files++;
	return 0;
}

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
	if (argc == 4 && strcmp(argv[1], "-r") == 0) {
		int n = atoi(argv[2]);
		repeat = 1;
		if (nftw(argv[3], visit, 64, FTW_PHYS) != 0) {
			perror(argv[3]);
			return 1;
		}
		double total[2] = {0, 0};
		for (int i = 0; i < n; i++) {
			for (int checked = 1; checked >= 0; checked--) {
				double t0 = now();
				for (int j = 0; j < npaths; j++) {
					struct stat st;
					if (checked && (lstat(paths[j], &st) != 0 || !S_ISREG(st.st_mode)))
						continue;
					int fd = open(paths[j], O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
					if (fd < 0)
						continue;
					while (read(fd, buf, sizeof buf) > 0)
						;
					close(fd);
				}
				total[checked] += now() - t0;
			}
		}
		printf("%.1f us a round checked (lstat first), %.1f us bare, %d files (mean of %d)\n", total[1] / n, total[0] / n, npaths, n);
		return 0;
	}
	for (int i = 1; i < argc; i++)
		if (nftw(argv[i], visit, 64, FTW_PHYS) != 0) {
			perror(argv[i]);
			return 1;
		}
	printf("%llu files, %llu bytes\n", files, bytes);
	return 0;
}
