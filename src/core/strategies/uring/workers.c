// SPDX-License-Identifier: MIT
/*
 * The workers of the io_uring pipeline: take a chunk from `todo`,
 * transform it from its known column, put it on `done` and wake the
 * reader through an eventfd (which the reader has a read posted on, so it
 * sleeps in one place: io_uring_enter).  Only the empty -> non-empty change
 * of `done` signals; the reader drains the whole list on each wake-up.
 * The queue needs no bound of its own: its items are pool buffers.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/transform.h"
#include "uring.h"

static struct chunk *pop_todo(struct wq *q)
{
	struct chunk *ch;

	pthread_mutex_lock(&q->lock);
	while (!q->todo && !q->stop)
		pthread_cond_wait(&q->cond, &q->lock);
	ch = q->todo;
	if (ch) {
		q->todo = ch->next;
		if (!q->todo)
			q->todo_tail = NULL;
	}
	pthread_mutex_unlock(&q->lock);
	return ch;
}

static void push_done(struct wq *q, struct chunk *ch)
{
	bool was_empty;

	ch->next = NULL;
	pthread_mutex_lock(&q->lock);
	was_empty = !q->done;
	if (q->done_tail)
		q->done_tail->next = ch;
	else
		q->done = ch;
	q->done_tail = ch;
	pthread_mutex_unlock(&q->lock);
	if (was_empty)
		eventfd_write(q->efd, 1);
}

static void *worker(void *arg)
{
	struct wq *q = arg;
	struct chunk *ch;

	while ((ch = pop_todo(q))) {
		uint64_t col = ch->col;

		if (!__atomic_load_n(&q->abort, __ATOMIC_RELAXED))
			transform_chunk(ch->buf, ch->got, q->work, &col);
		push_done(q, ch);
	}
	return NULL;
}

void uring_wq_push(struct wq *q, struct chunk *ch)
{
	ch->next = NULL;
	pthread_mutex_lock(&q->lock);
	if (q->todo_tail)
		q->todo_tail->next = ch;
	else
		q->todo = ch;
	q->todo_tail = ch;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

/* Everything the workers finished since the last call, in order. */
struct chunk *uring_wq_take_done(struct wq *q)
{
	struct chunk *list;

	pthread_mutex_lock(&q->lock);
	list = q->done;
	q->done = q->done_tail = NULL;
	pthread_mutex_unlock(&q->lock);
	return list;
}

int uring_workers_start(struct uctx *c)
{
	struct wq *q = &c->wq;
	int ret;

	q->work = c->job->work;
	q->efd = eventfd(0, EFD_CLOEXEC);
	if (q->efd < 0)
		return -errno;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
	c->tids = calloc(c->workers, sizeof(*c->tids));
	if (!c->tids)
		return -ENOMEM;
	for (; c->started < c->workers; c->started++) {
		ret = pthread_create(&c->tids[c->started], NULL, worker, q);
		if (ret)
			return -ret;
	}
	return 0;
}

void uring_workers_stop(struct uctx *c)
{
	struct wq *q = &c->wq;

	if (q->efd < 0)
		return;
	pthread_mutex_lock(&q->lock);
	q->stop = true;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
	for (unsigned i = 0; i < c->started; i++)
		pthread_join(c->tids[i], NULL);
	free(c->tids);
	c->tids = NULL;
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
	close(q->efd);
	q->efd = -1;
}
