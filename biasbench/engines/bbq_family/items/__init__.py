"""BBQ-format items: schema and loader, templates, generation, ``--limit`` samples, sources."""
