package org.fabprobe.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.fabprobe.launch.LocalSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The mirror half of a local run; started by the measure process, not by users. */
@Command(name = "mirror", hidden = true, description = "Echo side of a measurement (started by fabprobe itself).")
final class MirrorCommand implements Callable<Integer> {
    @Option(names = "--rendezvous", required = true, description = "UNIX socket of the measure process")
    Path rendezvous;

    @Override
    public Integer call() {
        LocalSession.serveMirror(rendezvous);
        return 0;
    }
}
