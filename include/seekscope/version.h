// SPDX-License-Identifier: LGPL-2.1-or-later
/* seekscope version, stamped into every trace file header. */
#ifndef SEEKSCOPE_VERSION_H
#define SEEKSCOPE_VERSION_H
#define SS_VERSION "0.1.0"
#endif
