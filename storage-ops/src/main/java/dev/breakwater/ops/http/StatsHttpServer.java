package dev.breakwater.ops.http;

import dev.breakwater.txn.StorageEngine;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The read-only HTTP server of the stats endpoint and page, on one Netty event loop thread
 * ({@code breakwater-http-*}, a daemon) that both accepts and serves: the endpoint answers a few
 * polls a second, so one thread is plenty and keeps it off the engine's cores.
 *
 * <p>Limits: request line {@value #MAX_INITIAL_LINE} bytes, headers {@value #MAX_HEADER_BYTES} bytes,
 * body {@value #MAX_CONTENT_BYTES} bytes (a GET needs none); a connection must send a complete request
 * within the configured deadline (see {@link RequestHandler}).
 *
 * <p>Lifecycle: {@link #start} binds or throws; {@link #close} closes the listening socket and every
 * connection and ends the event loop thread before it returns. Idempotent.
 *
 * <p>Thread safety: {@link #close} may be called from any thread except the event loop's.
 */
public final class StatsHttpServer implements Closeable {

    static final int MAX_INITIAL_LINE = 4096;
    static final int MAX_HEADER_BYTES = 8192;
    static final int MAX_CONTENT_BYTES = 8192;

    private final EventLoopGroup group;
    private final Channel channel;

    private StatsHttpServer(EventLoopGroup group, Channel channel) {
        this.group = group;
        this.channel = channel;
    }

    /**
     * Serves {@code engine}'s statistics on {@code bind:port}.
     *
     * @param directory      the engine's directory, shown by {@code /health}
     * @param port           TCP port, or 0 for any free port (see {@link #address()})
     * @param deadlineMillis how long a connection may take to send a complete request
     * @throws IOException naming the address if it cannot be bound (in use, not local)
     */
    public static StatsHttpServer start(StorageEngine engine, String directory, String bind, int port, long deadlineMillis)
            throws IOException {
        Endpoints endpoints = new Endpoints(engine, directory);
        EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("breakwater-http", true));
        try {
            ServerBootstrap b = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 64)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline()
                                    .addLast(new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADER_BYTES, MAX_CONTENT_BYTES))
                                    .addLast(new HttpObjectAggregator(MAX_CONTENT_BYTES))
                                    .addLast(new RequestHandler(endpoints, deadlineMillis));
                        }
                    });
            Channel ch = b.bind(bind, port).syncUninterruptibly().channel();
            return new StatsHttpServer(group, ch);
        } catch (Exception e) {
            // Netty rethrows the bind's checked exception (BindException, ...) without declaring it.
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
            throw new IOException("cannot serve stats on " + bind + ":" + port + ": " + e
                    + " (set http-port to a free port, or 0 for any; http-bind to a local address)", e);
        }
    }

    /** The address the server listens on (with the real port when started with port 0). */
    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    @Override
    public void close() {
        channel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
