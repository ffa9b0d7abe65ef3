package dev.breakwater.ops.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one connection's requests: GET of a path in {@link Endpoints}, nothing else.
 *
 * <ul>
 *   <li>a request the decoder could not parse gets 400 (414 for a too long request line, 431 for too
 *       long headers) and the connection is closed;
 *   <li>an HTTP version other than 1.0 and 1.1 gets 505;
 *   <li>any method but GET gets 405 with {@code Allow: GET}; an unknown path gets 404;
 *   <li>a connection must deliver a complete request within the deadline of its opening or of the
 *       previous response, or it is closed: this bounds stalled, trickling (slowloris) and idle
 *       keep-alive clients, and clients that stop reading their responses.
 * </ul>
 *
 * <p>Thread safety: one instance per channel; Netty calls it on the channel's event loop only, so
 * {@link #deadline} needs no lock.
 */
final class RequestHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger LOG = LoggerFactory.getLogger(RequestHandler.class);

    private final Endpoints endpoints;
    private final long deadlineMillis;
    private ScheduledFuture<?> deadline;

    RequestHandler(Endpoints endpoints, long deadlineMillis) {
        this.endpoints = endpoints;
        this.deadlineMillis = deadlineMillis;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        armDeadline(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        cancelDeadline();
        super.channelInactive(ctx);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        cancelDeadline();
        DecoderResult decoded = request.decoderResult();
        if (!decoded.isSuccess()) {
            HttpResponseStatus status = decoded.cause() instanceof TooLongHttpLineException
                    ? HttpResponseStatus.REQUEST_URI_TOO_LONG
                    : decoded.cause() instanceof TooLongHttpHeaderException
                    ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE
                    : HttpResponseStatus.BAD_REQUEST;
            send(ctx, Response.text(status, "malformed request: " + decoded.cause().getMessage()), false);
            return;
        }
        if (!HttpVersion.HTTP_1_1.equals(request.protocolVersion()) && !HttpVersion.HTTP_1_0.equals(request.protocolVersion())) {
            send(ctx, Response.text(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED, "only HTTP/1.0 and HTTP/1.1 are served"), false);
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (!HttpMethod.GET.equals(request.method())) {
            FullHttpResponse r = toNetty(Response.text(HttpResponseStatus.METHOD_NOT_ALLOWED,
                    "this endpoint is read-only: only GET is allowed"));
            r.headers().set(HttpHeaderNames.ALLOW, "GET");
            write(ctx, r, keepAlive);
            return;
        }
        if (!request.uri().startsWith("/")) {
            send(ctx, Response.text(HttpResponseStatus.BAD_REQUEST, "request target must be a path starting with /"), false);
            return;
        }
        String path = new QueryStringDecoder(request.uri()).path();
        Response response;
        try {
            response = endpoints.get(path);
        } catch (RuntimeException e) {
            LOG.warn("stats endpoint failed to answer GET {}", path, e);
            response = Response.text(HttpResponseStatus.INTERNAL_SERVER_ERROR, "internal error: " + e);
        }
        if (response == null) {
            response = Response.text(HttpResponseStatus.NOT_FOUND,
                    "no such path; try /stats, /tuner, /datasets, /health or / (the page)");
        }
        send(ctx, response, keepAlive);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Reset connections, oversized chunked bodies and the like: drop the connection, keep serving.
        LOG.debug("stats endpoint closes {} after {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }

    private void send(ChannelHandlerContext ctx, Response response, boolean keepAlive) {
        write(ctx, toNetty(response), keepAlive);
    }

    private void write(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        } else {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        ChannelFuture f = ctx.writeAndFlush(response);
        if (keepAlive) {
            armDeadline(ctx);
        } else {
            f.addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static FullHttpResponse toNetty(Response r) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, r.status(), Unpooled.wrappedBuffer(r.body()));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, r.contentType())
                .setInt(HttpHeaderNames.CONTENT_LENGTH, r.body().length)
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_STORE)
                .set("X-Content-Type-Options", "nosniff");
        return response;
    }

    private void armDeadline(ChannelHandlerContext ctx) {
        cancelDeadline();
        deadline = ctx.executor().schedule(() -> {
            LOG.debug("stats endpoint closes {}: no complete request within {} ms", ctx.channel().remoteAddress(), deadlineMillis);
            ctx.close();
        }, deadlineMillis, TimeUnit.MILLISECONDS);
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }
}
