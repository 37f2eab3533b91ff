"""Reusable widgets: resource table, forms, confirmations, the data grid."""
