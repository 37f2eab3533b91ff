"""The data-reports area: the catalogue of report groups (catalogue.py), the query builder (builder.py), streamed results (results.py) with their tools (tools.py) and export (export.py)."""
