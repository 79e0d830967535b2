package io.mdhub.benchmarks.bench;

import java.util.List;
import java.util.Locale;

/**
 * The p2p-server's CPU in one measured step of a fan-out test, beside what it sent: {@code fanout} has RSSL mounts
 * only, {@code fanout-json} the same watchlists with some mounts on the WebSocket API's JSON. The cost of a JSON
 * update out is what the JSON step's CPU leaves once its RSSL updates are charged at the same rate's RSSL-only cost
 * per update, divided by its JSON updates; both steps are of the same run.
 *
 * @param test         fanout or fanout-json.
 * @param rate         commanded input updates/s.
 * @param input        input updates/s achieved.
 * @param rsslOutput   updates/s the RSSL mounts received.
 * @param jsonOutput   updates/s the JSON mounts received.
 * @param p2pCpuNsPerS the p2p-server's CPU, ns per second of the measured window (all threads).
 * @param sustained    whether the step was sustained.
 */
record FanOutCpu(
    String test, long rate, long input, long rsslOutput, long jsonOutput, long p2pCpuNsPerS, boolean sustained)
{
    static final String CSV_HEADER = "test,rate_per_s,input_ups,rssl_output_ups,json_output_ups," +
        "p2p_cpu_ms_per_s,p2p_cpu_ns_per_update_out,sustained";

    /**
     * @return the p2p-server's CPU per update out, ns (0 when nothing went out).
     */
    long nsPerUpdateOut()
    {
        final long output = rsslOutput + jsonOutput;
        return 0 == output ? 0 : p2pCpuNsPerS / output;
    }

    String csv()
    {
        return String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%.1f,%d,%b", test, rate, input, rsslOutput, jsonOutput,
            p2pCpuNsPerS / 1e6, nsPerUpdateOut(), sustained);
    }

    /**
     * The JSON update's cost at every rate that both tests sustained.
     *
     * @param rows the fan-out tests' steps of one run.
     * @return a Markdown table, or a line saying that no rate had both.
     */
    static String jsonCostTable(final List<FanOutCpu> rows)
    {
        final StringBuilder md = new StringBuilder(
            "| input updates/s | RSSL-only: ns CPU per update out | with JSON mounts: ns per update out | " +
            "JSON update: ns | JSON / RSSL |\n|---:|---:|---:|---:|---:|\n");
        int lines = 0;
        for (final FanOutCpu json : rows)
        {
            if (!"fanout-json".equals(json.test()) || !json.sustained() || 0 == json.jsonOutput())
            {
                continue;
            }
            final FanOutCpu rssl = rows.stream()
                .filter((r) -> "fanout".equals(r.test()) && r.rate() == json.rate() && r.sustained())
                .findFirst().orElse(null);
            if (null == rssl || 0 == rssl.nsPerUpdateOut())
            {
                continue;
            }
            final double jsonNs = json.jsonUpdateNs(rssl.nsPerUpdateOut());
            md.append(String.format(Locale.ROOT, "| %,d | %,d | %,d | %,.0f | %.2f |%n", json.input(),
                rssl.nsPerUpdateOut(), json.nsPerUpdateOut(), jsonNs, jsonNs / rssl.nsPerUpdateOut()));
            lines++;
        }
        return 0 == lines ? "No rate was sustained by both fanout and fanout-json: no JSON cost to derive.\n" :
            md.toString();
    }

    /**
     * @param rsslNsPerUpdate the same rate's RSSL-only cost per update out.
     * @return this JSON step's CPU per JSON update, its RSSL updates charged at that cost.
     */
    double jsonUpdateNs(final long rsslNsPerUpdate)
    {
        return (p2pCpuNsPerS - (double)rsslNsPerUpdate * rsslOutput) / jsonOutput;
    }
}
