// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The socket protocol the trace-cmd importer (import_tracecmd.c) and its reader process
 * (import_tracecmd_reader.c) both speak (import_tracecmd_proto.h): whole messages through a
 * Unix socket, and descriptors handed over with them; the words for a ring that ended early;
 * the end of a reader or spawner process.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "import_tracecmd_proto.h"

/* All of LEN bytes through socket FD (SEND: out, else in): 0, or -1 at its end or an error. */
int ss_tc_xfer(int fd, void *buf, size_t len, bool send_it)
{
	char *p = buf;

	while (len) {
		ssize_t n = send_it ? send(fd, p, len, MSG_NOSIGNAL) : recv(fd, p, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* DATA (LEN bytes) and NFDS descriptors in one message: 0 or -1. */
int ss_tc_send_msg(int sock, const void *data, size_t len, const int *fds, size_t nfds)
{
	union {
		char buf[CMSG_SPACE(SS_TC_MAX_FDS * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	ssize_t n;

	if (nfds > SS_TC_MAX_FDS)
		return -1;
	if (nfds) {
		memset(&ctl, 0, sizeof(ctl));
		m.msg_control = ctl.buf;
		m.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	while ((n = sendmsg(sock, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	return n == (ssize_t)len ? 0 : -1;
}

int ss_tc_recv_msg(int sock, void *data, size_t len, int *fds, size_t nfds)
{
	union {
		char buf[CMSG_SPACE(SS_TC_MAX_FDS * sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { .iov_base = data, .iov_len = len };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			    .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	ssize_t n;
	size_t got = 0;

	while ((n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (n < 0)
		return -1;
	/* an empty message may still carry descriptors: looked at (and closed) all the same */
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (size_t i = 0; i < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); i++) {
			int fd;

			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			if (got < nfds)
				fds[got++] = fd;
			else
				close(fd);
		}
	}
	if (n == (ssize_t)len && !(m.msg_flags & (MSG_CTRUNC | MSG_TRUNC)))
		return (int)got;
	while (got > 0)
		close(fds[--got]);
	/* the socket's end (or nothing): -1; a message of the wrong size, or whose descriptors
	 * did not all fit (this process at its limit): -2 */
	return n > 0 ? -2 : -1;
}

/* What starts a file: one byte with two descriptors, the trace's and the memfd's.  0 or -1. */
int ss_tc_send_fds(int sock, const int fds[2], const struct ss_tc_budget *b)
{
	return ss_tc_send_msg(sock, b, sizeof(*b), fds, 2);
}

void ss_tc_damaged_msg(char *buf, size_t size, uint32_t damaged, uint32_t cpu)
{
	snprintf(buf, size,
		 damaged == DAMAGED_BACK ?
		 "the records of CPU %u go back in the file (damaged); read up to there" :
		 damaged == DAMAGED_FIELDS ?
		 "a record of CPU %u is shorter than its event's format says (damaged); read up "
		 "to there" :
		 "the data of CPU %u is damaged (it cannot be read on); read up to there", cpu);
}

/* import_tracecmd_proto.h.  PID is a child not yet reaped (a zombie at worst), so the pid
 * is still its own. */
void ss_tc_end_child(pid_t pid)
{
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}
