# SPDX-License-Identifier: GPL-2.0
"""scripts/convert's planner and finisher, which ../convert_plan.py runs as
four commands; one job a module:

  apis.py         the kernel's side: the APIs that lost regs in 2.6.19 and
                  those that keep it, the page-cache aio methods
  planner.py      plan: the driver's facts to problems and the DB (Plan)
  aio_planner.py  plan, the aio methods' half (Plan.async_shape())
  rewriter.py     finish: the markers the semantic patches leave, folded
  generators.py   lost-cocci and async-cocci: the semantic patches written
                  from the tables and the DB
"""
