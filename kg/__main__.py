from kg.cli import main

# The guard matters: worker processes started with `spawn` (kg serve) import this module again.
if __name__ == "__main__":
    raise SystemExit(main())
