package org.fabprobe.api;

/** A registration-cost sweep to run: which transport's registration, which buffer sizes, how many timed repetitions of each series. */
public record RegisterRequest(String transport, long[] sizes, int repetitions) {
    public RegisterRequest {
        if (transport == null || transport.isBlank()) throw new IllegalArgumentException("no transport");
        if (sizes == null || sizes.length == 0) throw new IllegalArgumentException("no buffer sizes");
        sizes = sizes.clone();
    }

    /** The command's defaults over {@code transport}: 4 KiB .. 1 GiB, 10 repetitions. */
    public static RegisterRequest of(String transport) {
        return new RegisterRequest(transport, SizeList.parse("4K..1G"), 10);
    }

    public RegisterRequest sizes(long... sizes) {
        return new RegisterRequest(transport, sizes, repetitions);
    }

    public RegisterRequest repetitions(int repetitions) {
        return new RegisterRequest(transport, sizes, repetitions);
    }

    @Override
    public long[] sizes() {
        return sizes.clone();
    }
}
