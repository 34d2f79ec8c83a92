// SPDX-License-Identifier: GPL-2.0
/*
 * ublk plumbing: control commands on /dev/ublk-control and the per-tag io
 * commands on /dev/ublkcN, both as IORING_OP_URING_CMD in 128-byte SQEs.
 *
 * Contract with ublk_drv (6.1 uapi, checked against the 6.12 driver):
 *  - control commands use the ioctl encoding (UBLK_U_CMD_*); the driver
 *    runs them from io-wq, so START_DEV may block (it waits until every tag
 *    has a FETCH queued, then adds the disk and reads the partition table
 *    through the queue thread).  Call it from a thread that is not the
 *    queue thread.
 *  - io commands (UBLK_U_IO_*) must all be issued by the task that issued
 *    the FETCHes; the buffer address passed with FETCH and COMMIT_AND_FETCH
 *    is where the driver copies write data to (before the request is
 *    handed over) and read data from (when the result is committed).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <liburing.h>

#include "flashemu.h"

#define CTRL_DEV	"/dev/ublk-control"

int ublk_ctrl_open(struct ublk_ctrl *c)
{
	struct io_uring *ring;
	int ret;

	memset(c, 0, sizeof(*c));
	c->ctrl_fd = open(CTRL_DEV, O_RDWR | O_CLOEXEC);
	if (c->ctrl_fd < 0)
		return -errno;
	ring = calloc(1, sizeof(*ring));
	if (!ring) {
		close(c->ctrl_fd);
		return -ENOMEM;
	}
	ret = io_uring_queue_init(4, ring, IORING_SETUP_SQE128);
	if (ret < 0) {
		free(ring);
		close(c->ctrl_fd);
		return ret;
	}
	c->ring = ring;
	return 0;
}

void ublk_ctrl_close(struct ublk_ctrl *c)
{
	if (c->ring) {
		io_uring_queue_exit(c->ring);
		free(c->ring);
		c->ring = NULL;
	}
	if (c->ctrl_fd >= 0)
		close(c->ctrl_fd);
	c->ctrl_fd = -1;
}

/* Issue one control command and wait for its result (0 or -errno). */
static int ublk_ctrl_cmd(struct ublk_ctrl *c, unsigned int op, int dev_id,
			 void *buf, unsigned int len, uint64_t data0)
{
	struct io_uring *ring = c->ring;
	struct ublksrv_ctrl_cmd *cmd;
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	int ret;

	sqe = io_uring_get_sqe(ring);
	if (!sqe)
		return -EBUSY;
	memset(sqe, 0, 2 * sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = c->ctrl_fd;
	sqe->cmd_op = op;
	cmd = (struct ublksrv_ctrl_cmd *)sqe->cmd;
	cmd->dev_id = (uint32_t)dev_id;
	cmd->queue_id = (uint16_t)-1;
	cmd->addr = (uint64_t)(uintptr_t)buf;
	cmd->len = len;
	cmd->data[0] = data0;

	ret = io_uring_submit(ring);
	if (ret < 0)
		return ret;
	do {
		ret = io_uring_wait_cqe(ring, &cqe);
	} while (ret == -EINTR);
	if (ret < 0)
		return ret;
	ret = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

int ublk_add_dev(struct ublk_ctrl *c, int dev_id, unsigned int depth,
		 unsigned int max_io, uint64_t flags)
{
	struct ublksrv_ctrl_dev_info *info = &c->info;
	int ret;

	memset(info, 0, sizeof(*info));
	info->nr_hw_queues = 1;
	info->queue_depth = depth;
	info->max_io_buf_bytes = max_io;
	info->dev_id = (uint32_t)dev_id;
	info->flags = flags;
	ret = ublk_ctrl_cmd(c, UBLK_U_CMD_ADD_DEV, dev_id, info, sizeof(*info),
			    0);
	return ret;
}

int ublk_set_params(struct ublk_ctrl *c)
{
	c->params.len = sizeof(c->params);
	return ublk_ctrl_cmd(c, UBLK_U_CMD_SET_PARAMS, c->info.dev_id,
			     &c->params, sizeof(c->params), 0);
}

int ublk_start_dev(struct ublk_ctrl *c, int pid)
{
	return ublk_ctrl_cmd(c, UBLK_U_CMD_START_DEV, c->info.dev_id, NULL, 0,
			     (uint64_t)pid);
}

int ublk_stop_dev(struct ublk_ctrl *c)
{
	return ublk_ctrl_cmd(c, UBLK_U_CMD_STOP_DEV, c->info.dev_id, NULL, 0,
			     0);
}

int ublk_del_dev(struct ublk_ctrl *c, int dev_id)
{
	return ublk_ctrl_cmd(c, UBLK_U_CMD_DEL_DEV, dev_id, NULL, 0, 0);
}

int ublk_get_dev_info(struct ublk_ctrl *c, int dev_id,
		      struct ublksrv_ctrl_dev_info *info)
{
	memset(info, 0, sizeof(*info));
	return ublk_ctrl_cmd(c, UBLK_U_CMD_GET_DEV_INFO, dev_id, info,
			     sizeof(*info), 0);
}

void ublk_prep_io_cmd(struct io_uring_sqe *sqe, int cdev_fd, unsigned int op,
		      unsigned int tag, int result, void *buf)
{
	struct ublksrv_io_cmd *cmd;

	memset(sqe, 0, 2 * sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = cdev_fd;
	sqe->cmd_op = op;
	sqe->user_data = tag;
	cmd = (struct ublksrv_io_cmd *)sqe->cmd;
	cmd->q_id = 0;
	cmd->tag = tag;
	cmd->result = result;
	cmd->addr = (uint64_t)(uintptr_t)buf;
}

size_t ublk_iod_map_size(unsigned int depth)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	size_t sz = (size_t)depth * sizeof(struct ublksrv_io_desc);

	return (sz + pg - 1) / pg * pg;
}
