/* SPDX-License-Identifier: MIT */
/* Every helper of src/lib/ in one include, and the three macros all code uses. */
#ifndef IOSTRAT_UTIL_H
#define IOSTRAT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

#include "log.h"
#include "parse.h"
#include "fileio.h"
#include "clock.h"
#include "path.h"
#include "text.h"
#include "words.h"

#endif
