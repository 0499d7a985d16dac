"""Entity rules: gazetteers, name patterns, task contexts, and the component
that settles every rule's candidates into the Doc's entities."""
