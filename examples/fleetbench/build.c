/* build: the C reference loop of apst.Build (BenchmarkBuild). Builds the
 * 256-byte APST table of the current kernels' tolerance mode with the
 * default parameters (ps_max_latency_us 100000; primary 100 ms / 15000 us,
 * secondary 2000 ms / 100000 us), as docs/spec/kernel-apst.md section 4
 * states the algorithm, for the power states of an Identify Controller
 * image (NPSS at byte 263, APSTA at 265, descriptors from byte 2048), or
 * for the 32 non-operational states of BenchmarkBuild's npss31 controller
 * (ENLAT i*700, EXLAT (i*3100)%97000), in a loop; prints the mean time of
 * one table in ns. Written from the specification, not from the kernel.
 *
 *   gcc -O2 -o build build.c
 *   ./build testdata/identify/samsung-990-evo-plus-1tb-2B2QKXG7.bin [N]
 *   ./build npss31 [N]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct ps {
	uint32_t enlat, exlat;
	int nops;
};

struct ctrl {
	int npss, apsta;
	struct ps ps[32];
};

struct table {
	uint64_t e[32];
	int max_ps;
	uint64_t max_lat;
};

static uint32_t le32(const unsigned char *b) {
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* build fills t for c; 0 when nothing is sent (APSTA 0, NPSS invalid). */
static int build(const struct ctrl *c, struct table *t) {
	const uint64_t bound = 100000, t1 = 100, tol1 = 15000, t2 = 2000, tol2 = 100000;
	memset(t, 0, sizeof *t);
	t->max_ps = -1;
	if (c->apsta == 0 || c->npss > 31)
		return 0;
	uint64_t carry = 0;
	int band = 0; /* 0 none, 1 primary, 2 secondary */
	for (int s = c->npss; s >= 0; s--) {
		if (carry)
			t->e[s] = carry;
		const struct ps *p = &c->ps[s];
		if (!p->nops || p->exlat > bound)
			continue;
		uint64_t total = (uint64_t)p->exlat + p->enlat, itpt;
		if (total <= tol1) {
			if (band == 1)
				continue;
			band = 1, itpt = t1;
		} else if (t2 && total <= tol2) {
			if (band)
				continue;
			band = 2, itpt = t2;
		} else
			continue;
		carry = (uint64_t)s << 3 | itpt << 8;
		if (t->max_ps < 0)
			t->max_ps = s;
		if (total > t->max_lat)
			t->max_lat = total;
	}
	return 1;
}

int main(int argc, char **argv) {
	if (argc < 2) {
		fprintf(stderr, "usage: build IDENTIFY.bin|npss31 [N]\n");
		return 2;
	}
	long n = argc > 2 ? atol(argv[2]) : 20000000;
	struct ctrl c = {0};
	if (strcmp(argv[1], "npss31") == 0) {
		c.npss = 31, c.apsta = 1;
		for (int i = 0; i < 32; i++)
			c.ps[i] = (struct ps){.enlat = i * 700, .exlat = (i * 3100) % 97000, .nops = 1};
	} else {
		unsigned char img[4096];
		FILE *f = fopen(argv[1], "rb");
		if (!f || fread(img, 1, sizeof img, f) != sizeof img) {
			perror(argv[1]);
			return 2;
		}
		fclose(f);
		c.npss = img[263], c.apsta = img[265];
		for (int i = 0; i < 32; i++) {
			const unsigned char *d = img + 2048 + 32 * i;
			c.ps[i] = (struct ps){.enlat = le32(d + 4), .exlat = le32(d + 8), .nops = d[3] >> 1 & 1};
		}
	}
	struct table t;
	volatile uint64_t sink = 0;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++) {
		/* The input is read through a volatile-dependent pointer so that
		 * the loop is not hoisted: each iteration builds a table. */
		c.ps[0].enlat = (uint32_t)(sink & 0);
		build(&c, &t);
		sink += t.e[0] + (uint64_t)t.max_ps + t.max_lat;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	double ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / n;
	printf("%.2f ns/op (max_ps %d, max_lat %llu)\n", ns, t.max_ps, (unsigned long long)t.max_lat);
	return 0;
}
