build/collector/trace_write.o: collector/trace_write.c \
 include/seekscope/codec.h include/seekscope/format.h \
 collector/trace_write.h include/seekscope/version.h
include/seekscope/codec.h:
include/seekscope/format.h:
collector/trace_write.h:
include/seekscope/version.h:
