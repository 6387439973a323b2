// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libarchive, loaded with dlopen() by the code that reads or writes archives (the extraction
 * workload, mkarchive) rather than linked: linked, it and the libraries it needs (libxml2 and
 * through it ICU and libstdc++, nettle, lzma, lz4, bz2, acl) were mapped and relocated at
 * every start of seekscope, about 7 ms of every command's time (a report, a plot), for the few
 * that extract.  Each user keeps a table of function pointers filled here, each named like
 * the function it points to and typed from libarchive's own headers.  No state outside the
 * table: the dynamic loader counts the openings, and the library stays mapped once loaded
 * (RTLD_NODELETE), so that a second opening (the extraction after record's check of the
 * archive, before the capture) only looks the functions up again.
 */
#ifndef SS_WORKLOAD_ARLIB_H
#define SS_WORKLOAD_ARLIB_H

#include <stddef.h>
#include <archive.h>
#include <archive_entry.h>

/* The library's soname has been libarchive.so.13 for every 3.x release. */
#if ARCHIVE_VERSION_NUMBER < 3000000 || ARCHIVE_VERSION_NUMBER >= 4000000
#error "libarchive 3.x expected (soname libarchive.so.13)"
#endif
#define SS_AR_SONAME "libarchive.so.13"

/* The functions seekscope calls. */
#define SS_AR_FUNCS(X) \
	X(archive_entry_clear) \
	X(archive_entry_copy_hardlink) \
	X(archive_entry_copy_pathname) \
	X(archive_entry_filetype) \
	X(archive_entry_free) \
	X(archive_entry_hardlink) \
	X(archive_entry_new) \
	X(archive_entry_pathname) \
	X(archive_entry_perm) \
	X(archive_entry_set_filetype) \
	X(archive_entry_set_mtime) \
	X(archive_entry_set_perm) \
	X(archive_entry_set_size) \
	X(archive_errno) \
	X(archive_error_string) \
	X(archive_filter_bytes) \
	X(archive_read_data_block) \
	X(archive_read_free) \
	X(archive_read_new) \
	X(archive_read_next_header) \
	X(archive_read_open_filename) \
	X(archive_read_support_filter_all) \
	X(archive_read_support_format_7zip) \
	X(archive_read_support_format_ar) \
	X(archive_read_support_format_cab) \
	X(archive_read_support_format_cpio) \
	X(archive_read_support_format_empty) \
	X(archive_read_support_format_iso9660) \
	X(archive_read_support_format_lha) \
	X(archive_read_support_format_rar) \
	X(archive_read_support_format_rar5) \
	X(archive_read_support_format_tar) \
	X(archive_read_support_format_warc) \
	X(archive_read_support_format_xar) \
	X(archive_read_support_format_zip) \
	X(archive_write_add_filter) \
	X(archive_write_close) \
	X(archive_write_data) \
	X(archive_write_data_block) \
	X(archive_write_disk_new) \
	X(archive_write_disk_set_options) \
	X(archive_write_disk_set_skip_file) \
	X(archive_write_finish_entry) \
	X(archive_write_free) \
	X(archive_write_header) \
	X(archive_write_new) \
	X(archive_write_open_fd) \
	X(archive_write_set_filter_option) \
	X(archive_write_set_format_cpio_newc) \
	X(archive_write_set_format_pax_restricted) \
	X(archive_write_set_format_zip)

struct ss_ar {
	void *lib;
#define SS_AR_POINTER(fn) __typeof__(fn) *fn;
	SS_AR_FUNCS(SS_AR_POINTER)
#undef SS_AR_POINTER
};

/*
 * Load the library and fill AR.  0, or -ENOSYS with a line naming the library or the function
 * that is missing in err (AR is then closed).
 */
int ss_ar_open(struct ss_ar *ar, char *err, size_t errlen);
/* Let go of the library (it stays mapped); accepts a table never or half opened. */
void ss_ar_close(struct ss_ar *ar);

#endif
