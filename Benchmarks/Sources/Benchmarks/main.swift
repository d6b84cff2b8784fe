// `swift run -c release --package-path Benchmarks metacontroller-benchmarks`
//
// Prints one Markdown table: the median nanoseconds per operation and the ratio
// to the baseline measured just before it, in the same run.

var rows = EventBenchmarks.run()
rows += LoggingBenchmarks.run()
rows += DataBenchmarks.run()
rows += await ApiBenchmarks.run()

print("| operation | median ns/op | ratio to baseline |")
print("| --- | ---: | ---: |")
for row in rows {
    print("| \(row.name) | \(format(row.nanoseconds)) | \(format(row.nanoseconds / row.baseline))x |")
}

func format(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return String(describing: rounded)
}
