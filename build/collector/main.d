build/collector/main.o: collector/main.c collector/commands.h \
 include/seekscope/version.h
collector/commands.h:
include/seekscope/version.h:
