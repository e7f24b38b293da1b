"""`python -m catdoc` runs the command line (see `entry_point`)."""

from catdoc.entry_point import main

if __name__ == "__main__":
    main()
