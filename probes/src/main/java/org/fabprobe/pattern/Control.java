package org.fabprobe.pattern;

/**
 * The untimed side channel between measure and mirror (the rendezvous socket): how a
 * pattern tells its mirror a decision made from measurements, e.g. how long to warm up.
 */
public interface Control {
    void send(String name, long value);

    long receive(String name);
}
