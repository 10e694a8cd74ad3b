"""The files of a repository: listing them (disk, git's index) and finding the agent files among them."""
