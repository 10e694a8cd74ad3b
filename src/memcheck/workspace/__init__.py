"""What memcheck reads: a tree through a source (the disk, git's index, memory), and the agent files found in it."""
