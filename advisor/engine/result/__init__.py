"""The result document: evaluate and rescore, the preview and the document's types."""
