/* floor: the read floor of a fleet survey. Walks the trees given with
 * nftw and open/read/closes every regular file into a 64 KiB buffer;
 * prints the number of files and bytes. What "apstctl survey DIR" is
 * measured against (examples/fleetbench/bench.sh): any survey must at
 * least do this.
 *
 * floor -r N DIR walks DIR N times and prints the least time of a walk in
 * microseconds: the floor of nvmeapst's System.Inspect of a bundle, which
 * reads every file of it once a call but the manifest (read by OpenBundle)
 * and the empty ".keep" placeholders, which this mode skips too.
 * Build: gcc -O2 -o floor floor.c */
#define _XOPEN_SOURCE 700
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
static int repeat; /* -r: skip what Inspect does not read */

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
	(void)st;
	if (type != FTW_F)
		return 0;
	if (repeat && (path[ftw->base] == '.' || strcmp(path + ftw->base, "manifest.json") == 0))
		return 0;
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
		double best = 0;
		repeat = 1;
		for (int i = 0; i < n; i++) {
			double t0 = now();
			if (nftw(argv[3], visit, 64, FTW_PHYS) != 0) {
				perror(argv[3]);
				return 1;
			}
			double dt = now() - t0;
			if (i == 0 || dt < best)
				best = dt;
		}
		printf("%.1f us a walk (least of %d), %llu files\n", best, n, files / (unsigned long long)n);
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
