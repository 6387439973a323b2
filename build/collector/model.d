build/collector/model.o: collector/model.c include/seekscope/model.h \
 include/seekscope/format.h
include/seekscope/model.h:
include/seekscope/format.h:
