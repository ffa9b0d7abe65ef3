/**
 * The read-only HTTP stats endpoint and its live page, on Netty: {@link dev.breakwater.ops.http.StatsHttpServer}
 * (lifecycle and limits), {@link dev.breakwater.ops.http.RequestHandler} (method and path checks),
 * {@link dev.breakwater.ops.http.Endpoints} (the fixed table of paths), {@link dev.breakwater.ops.http.StatsJson}
 * (the JSON shapes) and {@link dev.breakwater.ops.http.PageAssets} (the page, from the jar).
 */
package dev.breakwater.ops.http;
