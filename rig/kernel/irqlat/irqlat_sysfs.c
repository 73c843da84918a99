// SPDX-License-Identifier: GPL-2.0-only
/*
 * irqlat - its sysfs interface, /sys/kernel/irqlat/ (see irqlat_main.c and
 * docs/rig/kernel-modules.md): run, stats, histogram and the samples binary
 * attribute.
 */

#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/version.h>

#include "irqlat.h"

/*
 * Where the last read of "samples" stopped: the start of line @idx is at
 * byte @pos of the file for run @run. Lets sequential reads continue there
 * instead of formatting the file again from its start.
 */
static struct {
	u64 run;
	loff_t pos;
	unsigned int idx;
} irqlat_cursor;
static struct kobject *irqlat_kobj;

static ssize_t run_show(struct kobject *kobj, struct kobj_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  READ_ONCE(irqlat_running) ? "running" : "idle");
}

static ssize_t run_store(struct kobject *kobj, struct kobj_attribute *attr,
			 const char *buf, size_t count)
{
	unsigned int n;
	int ret;

	ret = kstrtouint(buf, 0, &n);
	if (ret)
		return ret;
	ret = irqlat_run(n);
	return ret ? ret : count;
}

static ssize_t stats_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	const struct irqlat_result *s = &irqlat_res;
	int len;

	mutex_lock(&irqlat_res_lock);
	len = sysfs_emit(buf,
			 "chip %s\nout %u\nin %u\nedge %s\nmode %s\npasses %u\nmissed %u\nspurious %u\nmin_ns %llu\navg_ns %llu\nmax_ns %llu\nstddev_ns %llu\nsamples %u\nrun %llu\n",
			 s->cfg.chip, s->cfg.out, s->cfg.in,
			 irqlat_edge_names[s->cfg.edge],
			 s->cfg.threaded ? "threaded" : "hardirq", s->passes,
			 s->missed, s->spurious, s->min, s->avg, s->max,
			 s->stddev, irqlat_nsamples, s->run);
	mutex_unlock(&irqlat_res_lock);
	return len;
}

static int irqlat_emit_bucket(char *buf, int len, unsigned int b,
			      unsigned int count)
{
	if (b == IRQLAT_BUCKETS - 1)
		return sysfs_emit_at(buf, len, "%llu inf %u\n",
				     irqlat_bucket_lo(b), count);
	return sysfs_emit_at(buf, len, "%llu %llu %u\n", irqlat_bucket_lo(b),
			     irqlat_bucket_lo(b + 1), count);
}

static ssize_t histogram_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	unsigned int b;
	int len;

	mutex_lock(&irqlat_res_lock);
	len = sysfs_emit(buf, "# lo_ns hi_ns count\n");
	for (b = 0; b < IRQLAT_BUCKETS; b++)
		if (irqlat_res.hist[b])
			len += irqlat_emit_bucket(buf, len, b,
						  irqlat_res.hist[b]);
	mutex_unlock(&irqlat_res_lock);
	return len;
}

/*
 * "samples": a binary attribute, so that it can be larger than a page. Its
 * text is made on the fly, from any offset: a read that ends inside a line
 * leaves the cursor at that line, and the next read (at the next offset)
 * copies the rest of it.
 */
static size_t irqlat_copy_lines(char *buf, loff_t off, size_t count)
{
	unsigned int i = 0;
	size_t done = 0, len, at, n;
	loff_t pos = 0;
	char line[24];

	if (irqlat_cursor.run == irqlat_res.run && irqlat_cursor.pos <= off) {
		pos = irqlat_cursor.pos;
		i = irqlat_cursor.idx;
	}
	/* invariant: line i starts at pos <= off + done */
	while (i < irqlat_nsamples && done < count) {
		len = scnprintf(line, sizeof(line), "%llu\n", irqlat_samples[i]);
		at = off + done - pos;
		if (at < len) {
			n = min_t(size_t, len - at, count - done);
			memcpy(buf + done, line + at, n);
			done += n;
			if (at + n < len)
				break;	/* the rest of this line comes next read */
		}
		pos += len;
		i++;
	}
	irqlat_cursor.run = irqlat_res.run;
	irqlat_cursor.pos = pos;
	irqlat_cursor.idx = i;
	return done;
}

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define IRQLAT_BIN_ATTR const struct bin_attribute
#else
#define IRQLAT_BIN_ATTR struct bin_attribute
#endif

static ssize_t samples_read(struct file *file, struct kobject *kobj,
			    IRQLAT_BIN_ATTR *attr, char *buf, loff_t off,
			    size_t count)
{
	size_t done;

	if (off < 0)
		return -EINVAL;
	mutex_lock(&irqlat_res_lock);
	done = irqlat_copy_lines(buf, off, count);
	mutex_unlock(&irqlat_res_lock);
	return done;
}

/* size 0: the length is unknown, a read past the end returns 0 */
static struct bin_attribute irqlat_samples_attr = {
	.attr = { .name = "samples", .mode = 0444 },
	.read = samples_read,
};

static struct kobj_attribute irqlat_run_attr = __ATTR_RW(run);
static struct kobj_attribute irqlat_stats_attr = __ATTR_RO(stats);
static struct kobj_attribute irqlat_hist_attr = __ATTR_RO(histogram);

static struct attribute *irqlat_attrs[] = {
	&irqlat_run_attr.attr,
	&irqlat_stats_attr.attr,
	&irqlat_hist_attr.attr,
	NULL
};

static const struct attribute_group irqlat_group = {
	.attrs = irqlat_attrs,
};

int irqlat_sysfs_init(void)
{
	int ret;

	irqlat_kobj = kobject_create_and_add(IRQLAT_NAME, kernel_kobj);
	if (!irqlat_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(irqlat_kobj, &irqlat_group);
	if (ret)
		goto err;
	ret = sysfs_create_bin_file(irqlat_kobj, &irqlat_samples_attr);
	if (ret)
		goto err;
	return 0;

err:
	kobject_put(irqlat_kobj);
	return ret;
}

void irqlat_sysfs_exit(void)
{
	sysfs_remove_bin_file(irqlat_kobj, &irqlat_samples_attr);
	kobject_put(irqlat_kobj);
}
