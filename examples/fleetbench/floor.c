/* floor: the read floor of a fleet survey. Walks the trees given with
 * nftw and open/read/closes every regular file into a 64 KiB buffer;
 * prints the number of files and bytes. What "apstctl survey DIR" is
 * measured against (examples/fleetbench/bench.sh): any survey must at
 * least do this. Build: gcc -O2 -o floor floor.c */
#define _XOPEN_SOURCE 700
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[64 << 10];
static unsigned long long files, bytes;

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw) {
	(void)st;
	(void)ftw;
	if (type != FTW_F)
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

int main(int argc, char **argv) {
	for (int i = 1; i < argc; i++)
		if (nftw(argv[i], visit, 64, FTW_PHYS) != 0) {
			perror(argv[i]);
			return 1;
		}
	printf("%llu files, %llu bytes\n", files, bytes);
	return 0;
}
