/**
 * The {@code breakwater} command line ({@link dev.breakwater.tools.BreakwaterCli}): {@code info},
 * {@code verify} and {@code dump} of a data directory that no engine has open, read through the
 * engine's own readers and never modified, and {@code stats} of a running engine's endpoint.
 * User guide: docs/guide.md, section 9.
 */
package dev.breakwater.tools;
