/*
 * zpoolsim's OpenZFS space oracle: creates pools with the real SPA/DMU code of an OpenZFS
 * release (libzpool, the library ztest and zdb run on) and prints what they report, so that
 * crates/space can be compared with OpenZFS byte for byte.
 *
 * Written for zpoolsim; built by scripts/openzfs-oracle.sh inside an OpenZFS source tree.
 * Usage: oracle DIR < POOLS
 *
 * Each line of POOLS describes one pool (blank lines and lines from '#' on are skipped):
 *
 *     NAME ASHIFT VDEV...
 *
 * and each VDEV one top-level vdev of sparse file leaves of BYTES each:
 *
 *     CLASS/TYPE/BYTES    CLASS: normal, special, dedup or log
 *                         TYPE:  stripe-1 (one leaf), mirror-N, raidzP-N or
 *                                draidP:Dd:Cc:Ss (zpoolsim's layout strings)
 *
 * A line may go on with steps, from OpenZFS 2.3 on (raidz expansion), done in order once the
 * pool is created:
 *
 *     +fill/RECORDSIZE/BYTES  write BYTES of incompressible data to a new object of the root
 *                             dataset in blocks of RECORDSIZE, and sync
 *     +attach                 attach a new leaf of the first vdev's BYTES to the first
 *                             top-level vdev (a raidz: spa_vdev_attach, as zpool attach
 *                             POOL raidzP-0 FILE does), wait for the reflow, the vdev's
 *                             growth and the scrub that follows
 *
 * and the pool's line is then {"pool", "steps": [...]}: after creation and after each step,
 * SIZE, ALLOC and FREE (spa_prop_get), dspace, slop, the root dataset's AVAIL and USED, the
 * first top-level vdev, and for each fill so far its records and the allocated (DVA asize)
 * and charged (bp_get_dsize) bytes of its data blocks, read by traverse_dataset.
 *
 * The files are made in DIR (a tmpfs takes sparse files of 24 TB; ext4 stops at 16 TiB) and
 * removed with the pool. For each pool one line of JSON is printed: the line itself, SIZE as
 * spa_prop_get reports it (zpool list), dspace, slop, the root dataset's AVAIL and USED once
 * three txgs have synced (zfs list), and per top-level vdev its asize, ashift, metaslab shift,
 * count and summed size, the metaslabs lent to the embedded log and the deflate ratio.
 */

#include <sys/zfs_context.h>
#include <sys/spa.h>
#include <sys/spa_impl.h>
#include <sys/vdev_impl.h>
#include <sys/metaslab_impl.h>
#include <sys/dsl_pool.h>
#include <sys/dsl_dir.h>
#include <sys/fs/zfs.h>
#include <sys/txg.h>
#include <sys/dmu.h>
#include <sys/dmu_tx.h>
#include <sys/dmu_objset.h>
#include <sys/dmu_traverse.h>
#include <sys/dsl_dataset.h>
#include <zfeature_common.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ORACLE_ZFS_VERSION is major * 10000 + minor * 100 + patch, set by the build script. */
#ifndef ORACLE_ZFS_VERSION
#error "build with -DORACLE_ZFS_VERSION=<major*10000+minor*100+patch>"
#endif
#define	AT_LEAST(maj, min)	(ORACLE_ZFS_VERSION >= (maj) * 10000 + (min) * 100)

#define	MAX_TOPS	16
#define	MAX_STEPS	8
#define	MAX_LEAVES	64
/* Paths stay short: libzpool code is built with a 4 KiB stack frame limit. */
#define	PATH_BYTES	1024

/* One top-level vdev as a line describes it. */
typedef struct top {
	char class[16];
	char type[16];		/* VDEV_TYPE_FILE for a single disk */
	uint64_t parity, data, children, spares;
	uint64_t bytes;
} top_t;

static const char *dir;

static void
die(const char *what, const char *detail)
{
	(void) fprintf(stderr, "oracle: %s: %s\n", what, detail);
	exit(2);
}

/* TYPE of a VDEV token into t; returns 0 when it reads. */
static int
parse_type(const char *s, top_t *t)
{
	uint64_t a, b, c, d;

	if (strcmp(s, "stripe-1") == 0) {
		(void) strcpy(t->type, VDEV_TYPE_FILE);
		t->children = 1;
		return (0);
	}
	if (sscanf(s, "mirror-%" SCNu64, &a) == 1) {
		(void) strcpy(t->type, VDEV_TYPE_MIRROR);
		t->children = a;
		return (0);
	}
	if (sscanf(s, "raidz%" SCNu64 "-%" SCNu64, &a, &b) == 2) {
		(void) strcpy(t->type, VDEV_TYPE_RAIDZ);
		t->parity = a;
		t->children = b;
		return (0);
	}
	if (sscanf(s, "draid%" SCNu64 ":%" SCNu64 "d:%" SCNu64 "c:%" SCNu64 "s",
	    &a, &b, &c, &d) == 4) {
#if AT_LEAST(2, 1)
		(void) strcpy(t->type, VDEV_TYPE_DRAID);
		t->parity = a;
		t->data = b;
		t->children = c;
		t->spares = d;
		return (0);
#else
		die(s, "dRAID needs OpenZFS 2.1 or later");
#endif
	}
	return (-1);
}

static void
parse_top(char *tok, top_t *t)
{
	char *class = strtok(tok, "/");
	char *type = strtok(NULL, "/");
	char *bytes = strtok(NULL, "/");

	(void) memset(t, 0, sizeof (*t));
	if (class == NULL || type == NULL || bytes == NULL ||
	    strlen(class) >= sizeof (t->class) || parse_type(type, t) != 0 ||
	    t->children == 0 || t->children > MAX_LEAVES)
		die("bad vdev (CLASS/TYPE/BYTES)", tok);
	(void) strcpy(t->class, class);
	t->bytes = strtoull(bytes, NULL, 10);
}

/* A sparse file of t->bytes, and its leaf nvlist. */
static nvlist_t *
make_leaf(const char *pool, int top, int child, const top_t *t,
    uint64_t ashift)
{
	char path[PATH_BYTES];
	(void) snprintf(path, sizeof (path), "%s/%s.%d.%d", dir, pool, top,
	    child);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || ftruncate(fd, t->bytes) != 0)
		die("cannot make a sparse file", path);
	(void) close(fd);

	nvlist_t *leaf = fnvlist_alloc();
	fnvlist_add_string(leaf, ZPOOL_CONFIG_TYPE, VDEV_TYPE_FILE);
	fnvlist_add_string(leaf, ZPOOL_CONFIG_PATH, path);
	/* As `zpool create -o ashift=N` does: on every leaf. */
	fnvlist_add_uint64(leaf, ZPOOL_CONFIG_ASHIFT, ashift);
	return (leaf);
}

/* Leaves attached by +attach steps, removed with the pool's. */
static uint64_t attached;

static void
remove_files(const char *pool, int ntops, const top_t *tops)
{
	char path[PATH_BYTES];
	for (int i = 0; i < ntops; i++) {
		uint64_t extra = i == 0 ? attached : 0;
		for (uint64_t c = 0; c < tops[i].children + extra; c++) {
			(void) snprintf(path, sizeof (path), "%s/%s.%d.%d",
			    dir, pool, i, (int)c);
			(void) unlink(path);
		}
	}
}

/* dRAID groups per slice, as zpool create computes them: LCM(d + p, children - s). */
static uint64_t
draid_ngroups(const top_t *t)
{
	uint64_t ngroups = 1;
	while (ngroups * (t->data + t->parity) % (t->children - t->spares) != 0)
		ngroups++;
	return (ngroups);
}

static nvlist_t *
make_top(const char *pool, int i, const top_t *t, uint64_t ashift)
{
	nvlist_t *leaves[MAX_LEAVES];
	nvlist_t *top;

	for (uint64_t c = 0; c < t->children; c++)
		leaves[c] = make_leaf(pool, i, (int)c, t, ashift);
	if (strcmp(t->type, VDEV_TYPE_FILE) == 0) {
		top = leaves[0];
	} else {
		top = fnvlist_alloc();
		fnvlist_add_string(top, ZPOOL_CONFIG_TYPE, t->type);
		if (t->parity != 0)
			fnvlist_add_uint64(top, ZPOOL_CONFIG_NPARITY,
			    t->parity);
#if AT_LEAST(2, 1)
		if (strcmp(t->type, VDEV_TYPE_DRAID) == 0) {
			fnvlist_add_uint64(top, ZPOOL_CONFIG_DRAID_NDATA,
			    t->data);
			fnvlist_add_uint64(top, ZPOOL_CONFIG_DRAID_NSPARES,
			    t->spares);
			fnvlist_add_uint64(top, ZPOOL_CONFIG_DRAID_NGROUPS,
			    draid_ngroups(t));
		}
#endif
		fnvlist_add_nvlist_array(top, ZPOOL_CONFIG_CHILDREN,
		    (const nvlist_t **)leaves, t->children);
		for (uint64_t c = 0; c < t->children; c++)
			fnvlist_free(leaves[c]);
	}
	fnvlist_add_uint64(top, ZPOOL_CONFIG_IS_LOG,
	    strcmp(t->class, "log") == 0);
	if (strcmp(t->class, "special") == 0)
		fnvlist_add_string(top, ZPOOL_CONFIG_ALLOCATION_BIAS,
		    VDEV_ALLOC_BIAS_SPECIAL);
	else if (strcmp(t->class, "dedup") == 0)
		fnvlist_add_string(top, ZPOOL_CONFIG_ALLOCATION_BIAS,
		    VDEV_ALLOC_BIAS_DEDUP);
	return (top);
}

static nvlist_t *
make_root(const char *pool, int ntops, const top_t *tops, uint64_t ashift)
{
	nvlist_t *children[MAX_TOPS];
	for (int i = 0; i < ntops; i++)
		children[i] = make_top(pool, i, &tops[i], ashift);
	nvlist_t *root = fnvlist_alloc();
	fnvlist_add_string(root, ZPOOL_CONFIG_TYPE, VDEV_TYPE_ROOT);
	fnvlist_add_nvlist_array(root, ZPOOL_CONFIG_CHILDREN,
	    (const nvlist_t **)children, ntops);
	for (int i = 0; i < ntops; i++)
		fnvlist_free(children[i]);
	return (root);
}

/* Every feature this release supports enabled, as `zpool create` does by default. */
static nvlist_t *
make_props(void)
{
	nvlist_t *props = fnvlist_alloc();
	char name[128];
	for (int i = 0; i < SPA_FEATURES; i++) {
#if AT_LEAST(2, 0)
		if (!spa_feature_table[i].fi_zfs_mod_supported)
			continue;
#endif
		(void) snprintf(name, sizeof (name), "feature@%s",
		    spa_feature_table[i].fi_uname);
		fnvlist_add_uint64(props, name, 0);
	}
	return (props);
}

/* A numeric pool property as spa_prop_get reports it. */
static uint64_t
pool_prop(spa_t *spa, const char *name)
{
	nvlist_t *props, *prop;
#if AT_LEAST(2, 3)
	props = fnvlist_alloc();
	VERIFY0(spa_prop_get(spa, props));
#else
	VERIFY0(spa_prop_get(spa, &props));
#endif
	prop = fnvlist_lookup_nvlist(props, name);
	uint64_t value = fnvlist_lookup_uint64(prop, ZPROP_VALUE);
	nvlist_free(props);
	return (value);
}

static const char *
vdev_class(const vdev_t *vd)
{
	if (vd->vdev_islog)
		return ("log");
	if (vd->vdev_alloc_bias == VDEV_BIAS_SPECIAL)
		return ("special");
	if (vd->vdev_alloc_bias == VDEV_BIAS_DEDUP)
		return ("dedup");
	return ("normal");
}

static void
print_vdev(const vdev_t *vd)
{
	uint64_t space = 0, elog = 0;
	for (uint64_t m = 0; m < vd->vdev_ms_count; m++) {
		const metaslab_t *ms = vd->vdev_ms[m];
		space += ms->ms_size;
#if AT_LEAST(2, 1)
		if (ms->ms_group == vd->vdev_log_mg)
			elog++;
#endif
	}
	(void) printf("{\"class\":\"%s\",\"type\":\"%s\",\"children\":%"
	    PRIu64 ",\"asize\":%" PRIu64 ",\"ashift\":%" PRIu64
	    ",\"ms_shift\":%" PRIu64 ",\"ms_count\":%" PRIu64
	    ",\"ms_space\":%" PRIu64 ",\"embedded_log_ms\":%" PRIu64
	    ",\"deflate_ratio\":%" PRIu64 ",\"dspace\":%" PRIu64 "}",
	    vdev_class(vd), vd->vdev_ops->vdev_op_type, vd->vdev_children,
	    vd->vdev_asize, vd->vdev_ashift, vd->vdev_ms_shift,
	    vd->vdev_ms_count, space, elog, vd->vdev_deflate_ratio,
	    vd->vdev_stat.vs_dspace);
}

/* The root dataset's USED: what an empty pool's own metadata takes. */
static uint64_t
root_used(spa_t *spa)
{
	dsl_pool_t *dp = spa_get_dsl(spa);
	dsl_pool_config_enter(dp, FTAG);
	uint64_t used = dsl_dir_phys(dp->dp_root_dir)->dd_used_bytes;
	dsl_pool_config_exit(dp, FTAG);
	return (used);
}

/*
 * Syncs txgs until the empty pool's metadata stops moving: three rounds, then more until USED
 * is the same after two rounds in a row (at most 16). On a loaded machine a txg can still hold
 * log space maps or space map blocks that the next ones free; a CI run once read 536 KiB more
 * USED on a 100 MB pool than a quiet machine does.
 */
static void
settle(spa_t *spa)
{
	for (int i = 0; i < 3; i++)
		txg_wait_synced(spa_get_dsl(spa), 0);
	uint64_t was = root_used(spa);
	for (int i = 0; i < 16; i++) {
		txg_wait_synced(spa_get_dsl(spa), 0);
		uint64_t now = root_used(spa);
		if (now == was)
			return;
		was = now;
	}
}

static void
print_pool(spa_t *spa, const char *spec)
{
	dsl_pool_t *dp = spa_get_dsl(spa);
	uint64_t elog = 0;
#if AT_LEAST(2, 1)
	elog = metaslab_class_get_dspace(spa_embedded_log_class(spa));
#endif
	dsl_pool_config_enter(dp, FTAG);
	uint64_t avail = dsl_dir_space_available(dp->dp_root_dir, NULL, 0,
	    B_TRUE);
	uint64_t used = dsl_dir_phys(dp->dp_root_dir)->dd_used_bytes;
	dsl_pool_config_exit(dp, FTAG);

	(void) printf("{\"pool\":\"%s\",\"size\":%" PRIu64
	    ",\"dspace\":%" PRIu64 ",\"normal_dspace\":%" PRIu64
	    ",\"embedded_log_dspace\":%" PRIu64 ",\"slop\":%" PRIu64
	    ",\"deferred\":%" PRIu64 ",\"avail\":%" PRIu64 ",\"used\":%"
	    PRIu64 ",\"vdevs\":[", spec, pool_prop(spa, "size"),
	    spa_get_dspace(spa),
	    metaslab_class_get_dspace(spa_normal_class(spa)), elog,
	    spa_get_slop_space(spa),
	    spa->spa_deferred_bpobj.bpo_phys->bpo_bytes, avail, used);
	vdev_t *rvd = spa->spa_root_vdev;
	for (uint64_t c = 0; c < rvd->vdev_children; c++) {
		if (c > 0)
			(void) printf(",");
		print_vdev(rvd->vdev_child[c]);
	}
	(void) printf("]}\n");
	(void) fflush(stdout);
}

#if AT_LEAST(2, 3)
/* One +fill: its object and records. */
typedef struct fill {
	uint64_t object;
	uint64_t recordsize;
	uint64_t records;
} fill_t;

static fill_t fills[MAX_STEPS];
static int nfills;

/* What traverse_dataset finds of one object's data blocks. */
typedef struct data_blocks {
	uint64_t object;
	uint64_t blocks, asize, dsize;
} data_blocks_t;

static int
count_data(spa_t *spa, zilog_t *zilog, const blkptr_t *bp,
    const zbookmark_phys_t *zb, const struct dnode_phys *dnp, void *arg)
{
	(void) zilog, (void) dnp;
	data_blocks_t *d = arg;
	if (bp == NULL || BP_IS_HOLE(bp) || BP_IS_EMBEDDED(bp) ||
	    zb->zb_object != d->object || zb->zb_level != 0)
		return (0);
	d->blocks++;
	d->asize += DVA_GET_ASIZE(&bp->blk_dva[0]);
	d->dsize += bp_get_dsize(spa, bp);
	return (0);
}

/* Incompressible bytes (xorshift64), so that compression keeps every block whole. */
static void
random_fill(uint64_t *buf, uint64_t bytes)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	for (uint64_t i = 0; i < bytes / 8; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = x;
	}
}

static void
fill(spa_t *spa, const char *pool, uint64_t recordsize, uint64_t bytes)
{
	objset_t *os;
	uint64_t chunk = MAX(recordsize, 1 << 20);
	uint64_t *buf = umem_alloc(chunk, UMEM_NOFAIL);
	random_fill(buf, chunk);
	VERIFY0(dmu_objset_own(pool, DMU_OST_ANY, B_FALSE, B_TRUE, FTAG, &os));

	dmu_tx_t *tx = dmu_tx_create(os);
	dmu_tx_hold_bonus(tx, DMU_NEW_OBJECT);
	VERIFY0(dmu_tx_assign(tx, DMU_TX_WAIT));
	uint64_t object = dmu_object_alloc(os, DMU_OT_UINT64_OTHER,
	    (int)recordsize, DMU_OT_NONE, 0, tx);
	dmu_tx_commit(tx);

	uint64_t written = 0;
	while (written < bytes) {
		uint64_t n = MIN(chunk, bytes - written);
		tx = dmu_tx_create(os);
		dmu_tx_hold_write(tx, object, written, (int)n);
		if (dmu_tx_assign(tx, DMU_TX_WAIT) != 0) {
			dmu_tx_abort(tx);
			break;
		}
#if AT_LEAST(2, 4)
		dmu_write(os, object, written, n, buf, tx, 0);
#else
		dmu_write(os, object, written, n, buf, tx);
#endif
		dmu_tx_commit(tx);
		written += n;
	}
	dmu_objset_disown(os, B_TRUE, FTAG);
	umem_free(buf, chunk);
	txg_wait_synced(spa_get_dsl(spa), 0);
	fills[nfills].object = object;
	fills[nfills].recordsize = recordsize;
	fills[nfills].records = (written + recordsize - 1) / recordsize;
	nfills++;
}

/* zpool attach POOL <first vdev> FILE, then the reflow, the growth and the scrub. */
static void
attach(spa_t *spa, const char *pool, const top_t *t, uint64_t ashift)
{
	vdev_t *vd = spa->spa_root_vdev->vdev_child[0];
	uint64_t width = vd->vdev_children;
	nvlist_t *leaf = make_leaf(pool, 0, (int)(t->children + attached), t,
	    ashift);
	attached++;
	nvlist_t *root = fnvlist_alloc();
	fnvlist_add_string(root, ZPOOL_CONFIG_TYPE, VDEV_TYPE_ROOT);
	fnvlist_add_nvlist_array(root, ZPOOL_CONFIG_CHILDREN,
	    (const nvlist_t **)&leaf, 1);
	fnvlist_free(leaf);
	int error = spa_vdev_attach(spa, vd->vdev_guid, root, B_FALSE, B_FALSE);
	fnvlist_free(root);
	if (error != 0) {
		(void) fprintf(stderr, "oracle: %s: attach failed: %d\n", pool,
		    error);
		exit(2);
	}
	boolean_t waited;
	VERIFY0(spa_wait(pool, ZPOOL_WAIT_RAIDZ_EXPAND, &waited));
	/* vdev_online(ZFS_ONLINE_EXPAND) grows the vdev; its metaslabs follow. */
	for (int i = 0; i < 600; i++) {
		txg_wait_synced(spa_get_dsl(spa), 0);
		vd = spa->spa_root_vdev->vdev_child[0];
		if (vd->vdev_children == width + 1 && !vd->vdev_rz_expanding &&
		    vd->vdev_ms_count == vd->vdev_asize >> vd->vdev_ms_shift &&
		    vd->vdev_asize % (width + 1) == 0 &&
		    spa->spa_raidz_expand == NULL)
			break;
		(void) poll(NULL, 0, 50);
	}
	VERIFY0(spa_wait(pool, ZPOOL_WAIT_SCRUB, &waited));
}

static void
print_fills(spa_t *spa, const char *pool)
{
	objset_t *os;
	VERIFY0(dmu_objset_own(pool, DMU_OST_ANY, B_TRUE, B_TRUE, FTAG, &os));
	(void) printf(",\"fills\":[");
	for (int i = 0; i < nfills; i++) {
		data_blocks_t d = { .object = fills[i].object };
		VERIFY0(traverse_dataset(dmu_objset_ds(os), 0, TRAVERSE_PRE,
		    count_data, &d));
		(void) printf("%s{\"recordsize\":%" PRIu64 ",\"records\":%"
		    PRIu64 ",\"blocks\":%" PRIu64 ",\"asize\":%" PRIu64
		    ",\"dsize\":%" PRIu64 "}", i > 0 ? "," : "",
		    fills[i].recordsize, fills[i].records, d.blocks, d.asize,
		    d.dsize);
	}
	(void) printf("]");
	dmu_objset_disown(os, B_TRUE, FTAG);
	(void) spa;
}

/* One step's figures: the pool as print_pool gives it, ALLOC, FREE and the fills. */
static void
print_step(spa_t *spa, const char *pool, const char *step)
{
	dsl_pool_t *dp = spa_get_dsl(spa);
	dsl_pool_config_enter(dp, FTAG);
	uint64_t avail = dsl_dir_space_available(dp->dp_root_dir, NULL, 0,
	    B_TRUE);
	uint64_t used = dsl_dir_phys(dp->dp_root_dir)->dd_used_bytes;
	dsl_pool_config_exit(dp, FTAG);
	(void) printf("{\"step\":\"%s\",\"size\":%" PRIu64 ",\"alloc\":%"
	    PRIu64 ",\"free\":%" PRIu64 ",\"dspace\":%" PRIu64
	    ",\"normal_dspace\":%" PRIu64 ",\"embedded_log_dspace\":%" PRIu64
	    ",\"slop\":%" PRIu64 ",\"avail\":%" PRIu64 ",\"used\":%" PRIu64
	    ",\"vdev\":", step, pool_prop(spa, "size"),
	    pool_prop(spa, "allocated"), pool_prop(spa, "free"),
	    spa_get_dspace(spa),
	    metaslab_class_get_dspace(spa_normal_class(spa)),
	    metaslab_class_get_dspace(spa_embedded_log_class(spa)),
	    spa_get_slop_space(spa), avail, used);
	print_vdev(spa->spa_root_vdev->vdev_child[0]);
	print_fills(spa, pool);
	(void) printf("}");
}

/* The steps of a line, each followed by its figures. */
static void
run_steps(spa_t *spa, const char *pool, const char *spec, char **steps,
    int nsteps, const top_t *tops, uint64_t ashift)
{
	nfills = 0;
	(void) printf("{\"pool\":\"%s\",\"steps\":[", spec);
	print_step(spa, pool, "create");
	for (int i = 0; i < nsteps; i++) {
		uint64_t rs, bytes;
		if (strcmp(steps[i], "+attach") == 0)
			attach(spa, pool, &tops[0], ashift);
		else if (sscanf(steps[i], "+fill/%" SCNu64 "/%" SCNu64, &rs,
		    &bytes) == 2 && nfills < MAX_STEPS)
			fill(spa, pool, rs, bytes);
		else
			die("bad step (+fill/RECORDSIZE/BYTES or +attach)",
			    steps[i]);
		settle(spa);
		(void) printf(",");
		print_step(spa, pool, steps[i]);
	}
	(void) printf("]}\n");
	(void) fflush(stdout);
}
#endif

static void
run_line(char *line)
{
	static char spec[4096];
	top_t tops[MAX_TOPS];
	char *steps[MAX_STEPS];
	int ntops = 0, nsteps = 0;
	char *save;
	attached = 0;
	(void) strlcpy(spec, line, sizeof (spec));
	spec[strcspn(spec, "\n")] = '\0';
	char *pool = strtok_r(line, " \t\n", &save);
	char *ashift_text = strtok_r(NULL, " \t\n", &save);
	if (pool == NULL || pool[0] == '#')
		return;
	if (ashift_text == NULL)
		die("no ashift", pool);
	uint64_t ashift = strtoull(ashift_text, NULL, 10);
	for (char *tok; (tok = strtok_r(NULL, " \t\n", &save)) != NULL; ) {
		if (tok[0] == '+') {
			if (nsteps == MAX_STEPS)
				die("too many steps", pool);
			steps[nsteps++] = tok;
			continue;
		}
		if (ntops == MAX_TOPS)
			die("too many top-level vdevs", pool);
		parse_top(tok, &tops[ntops++]);
	}

	nvlist_t *root = make_root(pool, ntops, tops, ashift);
	nvlist_t *props = make_props();
	int error = spa_create(pool, root, props, NULL, NULL);
	fnvlist_free(root);
	fnvlist_free(props);
	if (error != 0) {
		(void) printf("{\"pool\":\"%s\",\"error\":%d}\n", spec,
		    error);
		(void) fflush(stdout);
		remove_files(pool, ntops, tops);
		return;
	}

	spa_t *spa;
	VERIFY0(spa_open(pool, &spa, FTAG));
	settle(spa);
	if (nsteps == 0) {
		print_pool(spa, spec);
	} else {
#if AT_LEAST(2, 3)
		run_steps(spa, pool, spec, steps, nsteps, tops, ashift);
#else
		die(steps[0], "raidz expansion steps need OpenZFS 2.3 or later");
#endif
	}
	spa_close(spa, FTAG);
	VERIFY0(spa_destroy(pool));
	remove_files(pool, ntops, tops);
}

int
main(int argc, char **argv)
{
	static char line[4096];
	static char cache[PATH_BYTES];

	if (argc != 2)
		die("usage", "oracle DIR < POOLS");
	dir = argv[1];
	(void) snprintf(cache, sizeof (cache), "%s/zpool.cache", dir);
	spa_config_path = cache;
#if AT_LEAST(2, 0)
	kernel_init(SPA_MODE_READ | SPA_MODE_WRITE);
#else
	kernel_init(FREAD | FWRITE);
#endif
	while (fgets(line, sizeof (line), stdin) != NULL)
		run_line(line);
	kernel_fini();
	return (0);
}
