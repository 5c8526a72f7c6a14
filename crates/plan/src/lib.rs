//! The planner: enumerate layouts, rank them, recommend one.
