/* SPDX-License-Identifier: GPL-2.0 */
/* Beside the driver's directory, found through the Makefile's -I. */
#ifndef REACHX_H
#define REACHX_H

#define REACHX_SIZE 32

#endif
