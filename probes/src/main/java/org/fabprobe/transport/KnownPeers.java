package org.fabprobe.transport;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.Function;

/**
 * What connecting to each peer address made (an fi_addr, a UCP endpoint, a mapped inbox),
 * made once per address: matrix connects to every rank in turn, and again in later rounds.
 *
 * @param <T> what a transport keeps per peer
 */
public final class KnownPeers<T> {
    /** By the address's bytes in hex (arrays compare by identity), in the order first connected. */
    private final Map<String, T> byAddress = new LinkedHashMap<>();

    /** What {@code connect} made for this address, calling it only the first time it is seen. */
    public T connect(byte[] peerAddress, Function<byte[], T> connect) {
        String key = HexFormat.of().formatHex(peerAddress);
        T known = byAddress.get(key);
        if (known != null) return known;
        T made = connect.apply(peerAddress);
        byAddress.put(key, made);
        return made;
    }

    /** Everything made so far, for the transport's close. */
    public Collection<T> all() {
        return byAddress.values();
    }

    public void clear() {
        byAddress.clear();
    }
}
