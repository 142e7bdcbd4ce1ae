/* SPDX-License-Identifier: Apache-2.0 */
/* Umbrella header of libfloe: Apache Iceberg in C. */
#ifndef FLOE_H
#define FLOE_H

#include "floe/common.h"
#include "floe/arrow.h"
#include "floe/io.h"
#include "floe/progress.h"
#include "floe/catalog.h"
#include "floe/table.h"
#include "floe/evolve.h"
#include "floe/scan.h"
#include "floe/maint.h"
#include "floe/meta.h"
#include "floe/sql.h"

#endif
