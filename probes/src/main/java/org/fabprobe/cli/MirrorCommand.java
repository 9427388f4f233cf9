package org.fabprobe.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.fabprobe.launch.MirrorServer;
import org.fabprobe.launch.Secret;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * `fabprobe mirror --listen [ADDR:]PORT`: the echo side for measurements from another host.
 * It runs exactly the sessions measure processes ask for (after they prove they know the
 * secret) and nothing else; local runs start one of these themselves.
 */
@Command(name = "mirror", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serve measurements from other hosts, one session after another, until stopped:",
                "  host B: fabprobe mirror --listen 7470 --secret-file F",
                "  host A: fabprobe pingpong -t ofi:tcp --peer B --secret-file F"})
final class MirrorCommand implements Callable<Integer> {
    @Option(names = "--listen", required = true, paramLabel = "[ADDR:]PORT",
            description = "Where to accept measure processes (port 0: any free port, printed). Without ADDR: all"
                    + " interfaces with a secret, loopback without one.")
    String listen;

    @Option(names = "--once", description = "Serve one session, then exit with its outcome.")
    boolean once;

    @Option(names = "--secret-file", paramLabel = "FILE", description = "The shared secret (from 'fabprobe secret'); else $FABPROBE_SECRET.")
    Path secretFile;

    @Option(names = "--insecure", description = "Listen beyond loopback without a secret (anyone who reaches the port may measure).")
    boolean insecure;

    @Option(names = "--src-addr", paramLabel = "ADDRESS",
            description = "Address network transports bind to. Default: the interface the measure process connected to.")
    String sourceAddress;

    @Option(names = "--quiet", description = "No log line per session.")
    boolean quiet;

    @Override
    public Integer call() {
        Secret secret = Secret.fromFileOrEnvironment(secretFile);
        return MirrorServer.serve(new MirrorServer.Config(listen, secret, insecure, once, quiet, sourceAddress, false),
                System.out, System.err);
    }
}
