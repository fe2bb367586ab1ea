// SPDX-License-Identifier: MIT
/* Framing: 4-byte big-endian length prefixes, the control frames, and the
 * deterministic payload bytes both sides can regenerate. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net.h"

void net_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

uint32_t net_get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put_be64(uint8_t *p, uint64_t v)
{
	net_put_be32(p, (uint32_t)(v >> 32));
	net_put_be32(p + 4, (uint32_t)v);
}

static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)net_get_be32(p) << 32 | net_get_be32(p + 4);
}

void frame_reset(struct frame_rx *f)
{
	memset(f, 0, sizeof(*f));
}

size_t frame_need(const struct frame_rx *f)
{
	return f->in_payload ? f->len - f->got : NET_HDR - f->hdr_got;
}

enum frame_ev frame_step(struct frame_rx *f, const uint8_t *p, size_t n,
			 size_t *used)
{
	size_t k;

	*used = 0;
	if (f->in_payload && f->got == f->len) {
		frame_reset(f);
		return FRAME_END;
	}
	if (!n)
		return FRAME_MORE;
	if (f->in_payload) {
		k = f->len - f->got < n ? f->len - f->got : n;
		f->got += (uint32_t)k;
		*used = k;
		return FRAME_DATA;
	}
	k = NET_HDR - f->hdr_got < n ? NET_HDR - f->hdr_got : n;
	memcpy(f->hdr + f->hdr_got, p, k);
	f->hdr_got += (unsigned)k;
	*used = k;
	if (f->hdr_got < NET_HDR)
		return FRAME_MORE;
	f->len = net_get_be32(f->hdr);
	f->got = 0;
	f->in_payload = true;
	return FRAME_HEAD;
}

void net_hello_encode(uint8_t out[NET_HELLO_LEN], enum net_kind kind,
		      uint32_t size, uint64_t count)
{
	memcpy(out, "IOSN", 4);
	net_put_be32(out + 4, NET_VERSION);
	net_put_be32(out + 8, (uint32_t)kind);
	net_put_be32(out + 12, size);
	put_be64(out + 16, count);
}

int net_hello_decode(const uint8_t *p, size_t n, enum net_kind *kind,
		     uint32_t *size, uint64_t *count, char *why, size_t wlen)
{
	uint32_t k;

	if (n != NET_HELLO_LEN || memcmp(p, "IOSN", 4)) {
		snprintf(why, wlen, "not an iostrat net client (bad hello)");
		return -EPROTO;
	}
	if (net_get_be32(p + 4) != NET_VERSION) {
		snprintf(why, wlen, "protocol version %u, this iostrat speaks %u",
			 net_get_be32(p + 4), (unsigned)NET_VERSION);
		return -EPROTO;
	}
	k = net_get_be32(p + 8);
	*size = net_get_be32(p + 12);
	*count = get_be64(p + 16);
	if (k != NET_ONEWAY && k != NET_PINGPONG) {
		snprintf(why, wlen, "unknown session kind %u", k);
		return -EPROTO;
	}
	if (*size > NET_MAX_SIZE || !*count || *count > NET_MAX_COUNT) {
		snprintf(why, wlen, "size %u or count %llu out of range",
			 *size, (unsigned long long)*count);
		return -EPROTO;
	}
	*kind = (enum net_kind)k;
	return 0;
}

void net_trailer_encode(uint8_t out[NET_TRAILER_LEN], const struct net_trailer *t)
{
	memcpy(out, "IOSE", 4);
	put_be64(out + 4, t->msgs);
	put_be64(out + 12, t->bytes);
	put_be64(out + 20, t->rx_hash);
	put_be64(out + 28, t->tx_hash);
	put_be64(out + 36, t->calls);
	put_be64(out + 44, t->user_us);
	put_be64(out + 52, t->sys_us);
}

int net_trailer_decode(const uint8_t *p, size_t n, struct net_trailer *t)
{
	if (n != NET_TRAILER_LEN || memcmp(p, "IOSE", 4))
		return -EPROTO;
	t->msgs = get_be64(p + 4);
	t->bytes = get_be64(p + 12);
	t->rx_hash = get_be64(p + 20);
	t->tx_hash = get_be64(p + 28);
	t->calls = get_be64(p + 36);
	t->user_us = get_be64(p + 44);
	t->sys_us = get_be64(p + 52);
	return 0;
}

/* splitmix64: fixed seed, so both sides make the same bytes. */
uint8_t *net_pattern(uint32_t size)
{
	size_t len = 2 * (size_t)size + NET_PATTERN_SLACK + 8;
	uint8_t *p = malloc(len);
	uint64_t x = 0x696f73747261744eull;

	if (!p)
		return NULL;
	for (size_t i = 0; i < len; i += 8) {
		uint64_t z = (x += 0x9e3779b97f4a7c15ull);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		memcpy(p + i, &z, len - i < 8 ? len - i : 8);
	}
	return p;
}

const uint8_t *net_msg(const uint8_t *pattern, uint64_t i)
{
	return pattern + i % NET_PATTERN_SLACK;
}

const uint8_t *net_reply(const uint8_t *pattern, uint64_t i)
{
	return pattern + (7 * i + 3) % NET_PATTERN_SLACK;
}
