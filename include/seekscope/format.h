// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * seekscope trace file format — the one contract between the collector and the renderer.
 *
 * A trace file is a fixed file header followed by a sequence of records.  Every integer is stored
 * little-endian whatever the host; every record starts with a fixed record header that names its
 * type, the payload length and the payload's CRC-32 (zlib polynomial), and every payload is padded
 * with zeros to a multiple of 8 bytes.  Readers skip record types they do not know, so new record
 * types can be added without a version bump; changing the layout of an existing record or of a
 * header requires bumping SS_FORMAT_VERSION.
 *
 *   file header   struct ss_file_header                  (SS_FILE_HEADER_SIZE bytes)
 *   record*       struct ss_record_header + payload      (payload padded to 8 bytes)
 *
 * The collector writes records as it goes (metadata first, then one SS_REC_EVENTS record per
 * flush while the workload runs, then statistics) and an SS_REC_END record when the capture ends
 * cleanly.  A file without SS_REC_END was cut short (recorder killed, disk full, power loss): the
 * reader accepts every complete record before the cut and reports the file as truncated.
 *
 * Events inside and across SS_REC_EVENTS records are in non-decreasing timestamp order.
 * Full documentation: docs/trace-format.md.
 */
#ifndef SEEKSCOPE_FORMAT_H
#define SEEKSCOPE_FORMAT_H

#include <stdint.h>
#include <stddef.h>

#define SS_FILE_MAGIC        "SEEKSCP\x1a"   /* 8 bytes; \x1a stops `type` on DOS-ish terminals */
#define SS_FORMAT_VERSION    1u
#define SS_ENDIAN_TAG        0x01020304u     /* stored little-endian: bytes 04 03 02 01 */
#define SS_FILE_HEADER_SIZE  64u
#define SS_RECORD_HEADER_SIZE 16u
#define SS_RECORD_ALIGN      8u
/* Upper bound on any payload: readers refuse larger lengths before allocating anything. */
#define SS_MAX_RECORD_LEN    (4u << 20)
/* Writers cut event batches at this many events (SS_MAX_RECORD_LEN / sizeof event, rounded). */
#define SS_MAX_EVENTS_PER_RECORD 65536u

struct ss_file_header {
	char     magic[8];          /* SS_FILE_MAGIC */
	uint32_t version;           /* SS_FORMAT_VERSION */
	uint32_t endian;            /* SS_ENDIAN_TAG, little-endian */
	uint32_t header_size;       /* SS_FILE_HEADER_SIZE: lets a future reader skip additions */
	uint32_t record_header_size;/* SS_RECORD_HEADER_SIZE */
	uint64_t created_unix_ns;   /* wall clock when the file was created */
	char     tool_version[16];  /* NUL-padded, e.g. "0.1.0" */
	uint8_t  reserved[16];      /* zero */
};

struct ss_record_header {
	uint32_t type;              /* enum ss_record_type */
	uint32_t length;            /* payload bytes, before padding; <= SS_MAX_RECORD_LEN */
	uint32_t crc32;             /* zlib crc32() of the unpadded payload */
	uint32_t reserved;          /* zero */
};

enum ss_record_type {
	SS_REC_DEVICE    = 1,  /* struct ss_rec_device */
	SS_REC_ZONE      = 2,  /* struct ss_rec_zone */
	SS_REC_META      = 3,  /* key NUL value NUL (UTF-8 text), e.g. "cmdline", "hostname" */
	SS_REC_EVENTS    = 4,  /* n * struct ss_event, n = length / sizeof(struct ss_event) */
	SS_REC_PHASE     = 5,  /* struct ss_rec_phase */
	SS_REC_CPU_STATS = 6,  /* struct ss_rec_cpu_stats, one per CPU, written at the end */
	SS_REC_CAPTURE   = 7,  /* struct ss_rec_capture, written at start and again at the end */
	SS_REC_END       = 8,  /* struct ss_rec_end: the capture was closed cleanly */
	SS_REC_TASKS     = 9,  /* n * struct ss_rec_task, n = length / sizeof(struct ss_rec_task) */
	SS_REC_FILEMAP   = 10, /* struct ss_rec_filemap: a file map begins (see below) */
	SS_REC_FILES     = 11, /* struct ss_rec_files_head, then packed struct ss_rec_file + name */
	SS_REC_EXTENTS   = 12, /* struct ss_rec_files_head, then n * struct ss_rec_extent */
	SS_REC_LOST      = 13, /* struct ss_rec_lost: where in time one CPU lost events */
};

/* One traced block device.  Sectors are always 512-byte units, as in the block layer. */
struct ss_rec_device {
	uint32_t dev;               /* kernel encoding used by block events: major << 20 | minor */
	uint32_t major, minor;      /* of the whole disk */
	uint32_t logical_block_size;
	uint32_t physical_block_size;
	uint32_t flags;             /* SS_DEV_* */
	uint64_t nr_sectors;        /* size of the whole disk */
	uint64_t part_start;        /* first sector of the partition/filesystem on the whole disk */
	uint64_t part_nr_sectors;   /* its length; = nr_sectors when the whole disk was named */
	char     name[32];          /* kernel name of the whole disk, e.g. "loop0", "sda" */
	char     part_name[32];     /* kernel name of the partition, "" for a whole disk */
	char     fstype[16];        /* filesystem found on the partition, "" if none/unknown */
	char     path[112];         /* what the user named (device or directory), truncated */
};
#define SS_DEV_ROTATIONAL  0x1u
#define SS_DEV_PARTITION   0x2u

/* A region of the device with a meaning: an XFS allocation group, the log, an ext4 group, ... */
struct ss_rec_zone {
	uint32_t dev;               /* same encoding as ss_rec_device.dev */
	uint32_t kind;              /* enum ss_zone_kind */
	uint32_t index;             /* AG number, group number, ... */
	uint32_t reserved;
	uint64_t start_sector;      /* absolute sector on the whole disk */
	uint64_t nr_sectors;
	char     label[32];         /* "AG0", "log", "journal", "group 3", ... */
};

enum ss_zone_kind {
	SS_ZONE_AG          = 1,    /* XFS allocation group */
	SS_ZONE_LOG         = 2,    /* XFS internal log */
	SS_ZONE_JOURNAL     = 3,    /* ext3/ext4 journal (one zone per extent) */
	SS_ZONE_GROUP       = 4,    /* ext4 block group (or flex group) */
	SS_ZONE_INODE_TABLE = 5,    /* ext4 inode table run */
	SS_ZONE_KIND_MAX
};

/* Phase markers: a begin/end pair per phase name, on the trace clock. */
struct ss_rec_phase {
	uint64_t ts_ns;             /* trace clock (CLOCK_MONOTONIC, like the events) */
	uint32_t kind;              /* enum ss_phase_kind */
	uint32_t reserved;
	char     name[32];          /* "extract", "sync", "delete", "workload", ... */
};
enum ss_phase_kind { SS_PHASE_BEGIN = 1, SS_PHASE_END = 2, SS_PHASE_MARK = 3 };

/* Capture statistics per CPU: what was read and what the ring buffer says it lost. */
struct ss_rec_cpu_stats {
	uint32_t cpu;
	uint32_t reserved;
	uint64_t events;            /* events decoded from this CPU (all types, before filtering) */
	uint64_t missed;            /* sum of per-page missed-event counts seen while reading */
	uint64_t overrun;           /* per_cpu/cpuN/stats "overrun" */
	uint64_t commit_overrun;    /* "commit overrun" */
	uint64_t dropped;           /* "dropped events" */
	uint64_t read_bytes;        /* raw ring-buffer bytes read */
};

/*
 * Events one CPU's ring buffer lost, placed in time: the reader of that CPU saw a page flagged
 * with missed events, so they were lost after the last event it had read from that CPU
 * (from_ns; the capture start if none) and before the first event of the flagged page (to_ns).
 * Written as the capture finds them.  Requests in flight across such a span cannot be paired
 * reliably (their issue or completion may be among the lost).
 */
struct ss_rec_lost {
	uint64_t from_ns;           /* trace clock */
	uint64_t to_ns;             /* >= from_ns */
	uint64_t count;             /* events lost (1 when the kernel did not say how many) */
	uint32_t cpu;
	uint32_t reserved;          /* zero */
};

struct ss_rec_capture {
	uint64_t start_ns;          /* trace clock when tracing was switched on */
	uint64_t end_ns;            /* trace clock when it was switched off (0 while running) */
	uint64_t buffer_kb;         /* per-CPU ring buffer size */
	uint32_t nr_cpus;
	int32_t  exit_status;       /* workload exit status (wait status decoded: code, or 128+sig) */
	char     clock[16];         /* trace clock name, "mono" */
	char     instance[48];      /* tracing instance used */
};

struct ss_rec_end {
	uint64_t nr_events;         /* events written in SS_REC_EVENTS records */
	uint64_t nr_records;        /* records before this one */
};

/*
 * Task table: from ts_ns on, process PID is named COMM (until a later entry for the same pid).
 * Names are stored once, not in every event: the recorder writes an entry when it first sees a
 * pid in an event that carries the task's name (issue, insert, queue) and again when the name
 * changes (exec, prctl, pid reuse, a kworker that moved on to other work).  Entries come before
 * the events that need them; readers look an event's pid up at its time.  An event before a
 * pid's first entry takes that first entry; a pid without entries is unknown.
 */
struct ss_rec_task {
	uint64_t ts_ns;             /* trace clock: the name holds from here on */
	uint32_t pid;               /* common_pid of the events (the kernel's task id) */
	uint32_t reserved;          /* zero */
	char     comm[16];          /* task->comm as the block events carry it, NUL-padded */
	char     work[32];          /* workqueue workers ("kworker/..."): the work function they
				     * were running ("wb_workfn", "xlog_cil_push_work"; from
				     * their stacks or workqueue_execute_start), NUL-padded; ""
				     * for other tasks or when unknown */
};

/*
 * File map: where the files and directories under a directory DIR lie on the disk, so that
 * requests can be attributed to files.  A map is one SS_REC_FILEMAP record followed by any
 * number of SS_REC_FILES and SS_REC_EXTENTS records naming its id.  Files are numbered
 * 0, 1, ... in the order of the FILES records of their map (ss_rec_files_head.first says where
 * a record starts); entry 0 is DIR itself, and every other entry's parent is a directory
 * entry that comes before it, so paths are built from names without repeating them.
 * Extents name their file by that number.  Extents come from FIEMAP: sectors are absolute on
 * the whole disk (the partition's start added), lengths are rounded up to whole sectors.
 * Counts and timings of the walk are in META records "filemap.*".
 */
struct ss_rec_filemap {
	uint64_t ts_ns;             /* trace clock when the walk began */
	uint32_t id;                /* 0, 1, ... in file order; FILES and EXTENTS name it */
	uint32_t dev;               /* the disk the extents lie on (as ss_rec_device.dev) */
	uint32_t flags;             /* SS_FMAP_* */
	uint32_t inode_size;        /* bytes of one on-disk inode; 0 when inode_sector is unknown */
	uint32_t chunk_inodes;      /* inodes per inode chunk (XFS: 64), 0 if the fs has none */
	uint32_t reserved;          /* zero */
	char     fstype[16];        /* "xfs", "ext4", ... as in the device record */
	char     root[96];          /* DIR as the user named it, truncated */
};
#define SS_FMAP_AT_END   0x1u  /* mapped when the workload ended: files it deleted are not in
				* the map, and requests to them stay unattributed */
#define SS_FMAP_NO_SYNC  0x2u  /* mapped without writing dirty data first (untar --fsync
				* none): data not yet on the disk is not in the map */

struct ss_rec_files_head {
	uint32_t map;               /* ss_rec_filemap.id */
	uint32_t first;             /* number of the record's first file (FILES), or 0 (EXTENTS) */
};

struct ss_rec_file {
	uint64_t ino;               /* inode number */
	uint64_t inode_sector;      /* absolute sector where the on-disk inode begins (its
				     * byte address / 512), or SS_SECTOR_NONE if unknown */
	uint32_t parent;            /* number of the parent directory; SS_FILE_NO_PARENT for DIR */
	uint16_t kind;              /* enum ss_file_kind */
	uint16_t name_len;          /* bytes of the name that follow (no NUL), then zeros up to a
				     * multiple of 8; "" for DIR itself */
};
#define SS_FILE_NO_PARENT UINT32_MAX
enum ss_file_kind { SS_FILE_REG = 1, SS_FILE_DIR = 2 };

struct ss_rec_extent {
	uint64_t logical;           /* byte offset in the file */
	uint64_t sector;            /* absolute sector on the whole disk */
	uint32_t nr_sectors;        /* 512-byte sectors (longer extents are split) */
	uint32_t file;              /* number of the file in its map */
	uint32_t flags;             /* FIEMAP_EXTENT_* as the kernel reported them */
	uint32_t reserved;          /* zero */
};

/* One block-layer event. */
struct ss_event {
	uint64_t ts_ns;             /* trace clock */
	uint64_t sector;            /* absolute sector on the whole disk; SS_SECTOR_NONE if none */
	uint32_t nr_sector;         /* 512-byte sectors */
	uint32_t bytes;             /* request bytes where the event has them, else nr_sector*512 */
	uint32_t dev;               /* major << 20 | minor */
	int32_t  error;             /* completion status (negative errno), 0 otherwise */
	uint16_t type;              /* enum ss_event_type */
	uint16_t flags;             /* SS_RW_* decoded from rwbs */
	uint16_t cpu;
	uint16_t reserved;
	uint32_t pid;               /* common_pid of the task the event fired in */
	uint32_t reserved2;
};

enum ss_event_type {
	SS_EV_ISSUE    = 1,         /* block_rq_issue: request handed to the driver (blktrace D) */
	SS_EV_COMPLETE = 2,         /* block_rq_complete (blktrace C) */
	SS_EV_REQUEUE  = 3,         /* block_rq_requeue (blktrace R) */
	SS_EV_INSERT   = 4,         /* block_rq_insert (blktrace I) */
	SS_EV_QUEUE    = 5,         /* block_bio_queue (blktrace Q) */
	SS_EV_TYPE_MAX
};

/* rwbs flags.  FLUSH is the op "flush"; PREFLUSH is the leading F, FUA the trailing F. */
#define SS_RW_READ      0x0001u
#define SS_RW_WRITE     0x0002u
#define SS_RW_DISCARD   0x0004u
#define SS_RW_FLUSH     0x0008u
#define SS_RW_PREFLUSH  0x0010u
#define SS_RW_FUA       0x0020u
#define SS_RW_AHEAD     0x0040u
#define SS_RW_SYNC      0x0080u
#define SS_RW_META      0x0100u
#define SS_RW_SECURE    0x0200u
#define SS_RW_NONE      0x0400u   /* 'N': other ops (zone management, ...) */

/* Flushes complete with sector (sector_t)-1 on current kernels and issue at sector 0. */
#define SS_SECTOR_NONE  UINT64_MAX

/* Encode the kernel's dev_t as block events print it. */
#define SS_MKDEV(ma, mi)  ((uint32_t)(((uint32_t)(ma) << 20) | ((uint32_t)(mi) & 0xfffffu)))
#define SS_DEV_MAJOR(d)   ((uint32_t)(d) >> 20)
#define SS_DEV_MINOR(d)   ((uint32_t)(d) & 0xfffffu)

_Static_assert(sizeof(struct ss_file_header) == SS_FILE_HEADER_SIZE, "file header layout");
_Static_assert(sizeof(struct ss_record_header) == SS_RECORD_HEADER_SIZE, "record header layout");
_Static_assert(sizeof(struct ss_rec_device) == 240, "device record layout");
_Static_assert(sizeof(struct ss_rec_zone) == 64, "zone record layout");
_Static_assert(sizeof(struct ss_rec_phase) == 48, "phase record layout");
_Static_assert(sizeof(struct ss_rec_cpu_stats) == 56, "cpu stats record layout");
_Static_assert(sizeof(struct ss_rec_capture) == 96, "capture record layout");
_Static_assert(sizeof(struct ss_rec_end) == 16, "end record layout");
_Static_assert(sizeof(struct ss_event) == 48, "event layout");
_Static_assert(sizeof(struct ss_rec_task) == 64, "task record layout");
_Static_assert(sizeof(struct ss_rec_filemap) == 144, "file map record layout");
_Static_assert(sizeof(struct ss_rec_files_head) == 8, "file list head layout");
_Static_assert(sizeof(struct ss_rec_file) == 24, "file entry layout");
_Static_assert(sizeof(struct ss_rec_extent) == 32, "extent layout");
_Static_assert(sizeof(struct ss_rec_lost) == 32, "lost record layout");
_Static_assert(SS_MAX_EVENTS_PER_RECORD * sizeof(struct ss_event) <= SS_MAX_RECORD_LEN,
	       "an event batch fits in a record");

#endif /* SEEKSCOPE_FORMAT_H */
