"""`python -m catdoc` runs the command line."""

from catdoc.cli import main

if __name__ == "__main__":
    main()
