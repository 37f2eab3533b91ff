"""The Textual app: imports flextui.api, never the other way round."""
