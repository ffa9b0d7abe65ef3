/**
 * The TPC-C harness (to come; DESIGN.md section 7): schema as nine datasets with secondary
 * indexes, loader, terminals running the five transactions, consistency checks and a command line.
 */
package dev.breakwater.tpcc;
