"""The engine's messages (errors and notes) in Chinese, at the page
boundary: :func:`message_zh`.

The app's fixed names (criteria, growth orders, tasks, presets) are in
``dtree.views.vocabulary``, the built-in datasets' in
``dtree.tables.dataset`` and the stop reasons' in ``dtree.views.narration``.
"""

import re


# ---------------------------------------------------------------------------
# dtree's messages (dtree.tables.io, dtree.tables.prepare, the estimators), in Chinese
# ---------------------------------------------------------------------------

#: What dtree.tables.io says a non-table file is.
FILE_KINDS_ZH = {
    "a PNG image": "PNG 图片", "a JPEG image": "JPEG 图片", "a GIF image": "GIF 图片",
    "a PDF document": "PDF 文档", "a gzip archive": "gzip 压缩包",
    "a bzip2 archive": "bzip2 压缩包", "a 7-Zip archive": "7-Zip 压缩包",
    "a RAR archive": "RAR 压缩包", "a program (ELF executable)": "程序（ELF 可执行文件）",
    "a Windows program": "Windows 程序",
    "a Python pickle (never loaded here)": "Python pickle 文件（这里从不加载）",
}
DELIMITERS_ZH = {"comma": "逗号", "tab": "制表符", "semicolon": "分号", "vertical bar": "竖线"}

_NAME = r"“(?P<name>.*)”"
_QUOTED = r"""(?P<q>['"])(?P<name>.*)(?P=q)"""

#: (English message as a regular expression, Chinese template): the messages
#: the engine words for the page (errors and notes).  Named groups carry the
#: user's text and numbers over unchanged; a template may also be a function
#: of the match.  The pages escape the result as they escape the English.
MESSAGES_ZH = [
    # dtree.tables.prepare: errors
    (r"ID3 has no rule for missing values, and fewer than 2 training rows have none\. "
     r"Choose C4\.5 or CART, which handle them\.",
     "ID3 没有处理缺失值的规则，而不含缺失值的训练样本不足 2 个。请选择能处理缺失值的 C4.5 或 CART。"),
    (r"Choose a target column\.", "请选择目标列。"),
    (r"Choose at least one feature column \(a column other than the target\)\.",
     "请至少选择一个特征列（目标列以外的列）。"),
    (rf"The target column {_NAME} has no values: every entry is missing\.",
     "目标列“{name}”没有任何取值：全部缺失。"),
    (r"None of the chosen features has any usable value\.", "所选特征都没有可用的取值。"),
    (r"Only (?P<n>\d+) usable row\(s\) remain after leaving out missing targets; a tree "
     r"needs at least 2\.",
     "剔除目标值缺失的样本后只剩 {n} 个可用样本；决策树至少需要 2 个。"),
    (rf"The target {_NAME} has (?P<n>\d+) different values, too many classes to show "
     r"\(at most (?P<max>\d+)\)\. It looks like an identifier or a measurement: choose "
     r"another target, or treat it as regression if it is numeric\.",
     "目标“{name}”有 {n} 个不同的取值，类别太多，无法显示（最多 {max} 个）。它看起来像编号或"
     "测量值：请选择其他目标列；如果它是数值，可以按回归处理。"),
    (r"Too few rows for a training set: lower the test fraction\.",
     "训练集的样本太少：请降低测试集比例。"),
    (rf"The target {_NAME} has text values, so it cannot be predicted by a regression "
     r"tree\. Choose classification\.",
     "目标“{name}”含有文本取值，回归树无法预测它。请选择分类。"),
    (rf"{_NAME} has (?P<n>[\d,]+) categories, more than (?P<max>[\d,]+): it looks like an "
     r"identifier\. Leave it out, or treat it as numeric\.",
     "“{name}”有 {n} 个类别，超过 {max} 个：它看起来像编号。请不要使用该列，或把它当作数值特征。"),
    # dtree.tables.prepare: notes
    (r"ID3 has no rule for missing values: (?P<n>\d+) row\(s\) with one were left out "
     r"\(C4\.5 and CART use them\)\.",
     "ID3 没有处理缺失值的规则：{n} 个含缺失值的样本被剔除（C4.5 和 CART 会使用它们）。"),
    (r"(?P<n>\d+) row\(s\) with a missing target were left out\.",
     "{n} 个目标值缺失的样本被剔除。"),
    (r"(?P<n>\d+) row\(s\) have a missing value in a chosen feature\. CART sends them down "
     r"the side that gives the larger gain, C4\.5 and J48 split them across the branches by "
     r"weight, ID3 leaves them out\.",
     "{n} 个样本在所选特征上有缺失值。CART 把它们分到增益更大的一侧，C4.5 和 J48 按权重把它们"
     "分到各个分支，ID3 剔除它们。"),
    (r"The target has a single class: the tree is one leaf\.",
     "目标只有一个类别：决策树只有一个叶结点。"),
    (rf"{_NAME}: (?P<n>\d+) entr(?:y|ies) that are not numbers were read as missing\.",
     "“{name}”：{n} 个不是数值的取值按缺失值处理。"),
    (r"Left out, since they hold no numbers \(mark them categorical to use them\): "
     r"(?P<names>.*)\.",
     "以下列不含数值，已被剔除（把它们标为类别特征即可使用）：{names}。"),
    (rf"{_NAME}: (?P<n>\d+) infinite value\(s\) were read as missing\.",
     "“{name}”：{n} 个无穷大的值按缺失值处理。"),
    (rf"{_NAME} has (?P<n>\d+) categories: ID3 and C4\.5 give each its own branch, so a "
     r"split on it is very wide\.",
     "“{name}”有 {n} 个类别：ID3 和 C4.5 为每个类别建一个分支，在它上面的划分会非常宽。"),
    (rf"{_NAME} mixes numbers and text \(e\.g\. “(?P<example>.*)”\); it is treated as "
     r"categorical\. Take it out of the categorical features to read the text entries as "
     r"missing\.",
     "“{name}”混有数值和文本（例如“{example}”），按类别特征处理。把它从类别特征中移除，"
     "文本取值就会按缺失值处理。"),
    # dtree.tables.io: errors
    (r"The file is empty \(0 bytes\)\.", "文件是空的（0 字节）。"),
    (r"The file contains only blank space: there is no table in it\.",
     "文件只有空白字符：其中没有表格。"),
    (r"This file is (?P<what>.+), not a table\. Upload a CSV, TSV, Excel \(\.xlsx\) or "
     r"Parquet file\.",
     lambda m: f"这个文件是 {FILE_KINDS_ZH.get(m['what'], m['what'])}，不是表格。"
               "请上传 CSV、TSV、Excel（.xlsx）或 Parquet 文件。"),
    (r"This is an old binary Excel \(\.xls\) or Office file, which dtree does not read\. "
     r"In Excel, save it as \.xlsx or CSV\.",
     "这是旧版的二进制 Excel（.xls）或 Office 文件，dtree 不能读取。请在 Excel 中另存为 .xlsx 或 CSV。"),
    (r"This file is named like an Excel workbook but is not one \(an \.xlsx file is a zip "
     r"archive\)\. Re-save it from Excel\.",
     "这个文件的名字像 Excel 工作簿，但它不是（.xlsx 文件是 zip 压缩包）。请在 Excel 中重新保存。"),
    (r"This file is named \.parquet but is not a Parquet file\.",
     "这个文件名为 .parquet，但不是 Parquet 文件。"),
    (r"No columns were found in the file\.", "文件中没有找到任何列。"),
    (r"The file has a header but no data rows\.", "文件只有表头，没有数据行。"),
    (r"The file starts like a zip archive but is damaged\.", "文件开头像 zip 压缩包，但已损坏。"),
    (r"This is a zip archive, not a table\. Unzip it and upload the CSV or Excel file "
     r"inside\.",
     "这是 zip 压缩包，不是表格。请解压后上传其中的 CSV 或 Excel 文件。"),
    (r"This workbook unpacks to (?P<n>\d+) MB, more than the (?P<max>\d+) MB dtree "
     r"accepts\.",
     "这个工作簿解压后有 {n} MB，超过 dtree 接受的上限 {max} MB。"),
    (r"Reading Excel files needs the openpyxl package \(pip install openpyxl\)\.",
     "读取 Excel 文件需要 openpyxl 包（pip install openpyxl）。"),
    (r"The Excel file could not be read \((?P<exc>\w+)\)\.",
     "无法读取这个 Excel 文件（{exc}）。"),
    (r"The workbook has no sheets\.", "工作簿中没有工作表。"),
    (r"The first sheet of the workbook is empty\.", "工作簿的第一个工作表是空的。"),
    (r"The Parquet file could not be read \((?P<exc>\w+)\)\.",
     "无法读取这个 Parquet 文件（{exc}）。"),
    (r"This file does not look like text: it contains binary data\. Upload a CSV, TSV, "
     r"Excel \(\.xlsx\) or Parquet file\.",
     "这个文件看起来不是文本：其中含有二进制数据。请上传 CSV、TSV、Excel（.xlsx）或 Parquet 文件。"),
    (r"The file has no header row\.", "文件没有表头行。"),
    # (the parser's own detail, from Python's csv module or pandas, stays as it is)
    (r"The header row could not be read: (?P<detail>.*)\.", "无法读取表头行：{detail}。"),
    (r"The file could not be parsed as a table: (?P<detail>.*)",
     "无法把文件解析为表格：{detail}"),
    # dtree.tables.io: notes
    (r"The file is an Excel workbook \(whatever its name says\) and was read as one\.",
     "这个文件是 Excel 工作簿（不论文件名如何），已按工作簿读取。"),
    (r"The workbook has (?P<n>\d+) sheets; the first, “(?P<name>.*)”, was read\.",
     "工作簿有 {n} 个工作表；读取的是第一个：“{name}”。"),
    (r"Read as text in (?P<enc>.+), columns separated by "
     r"(?P<delim>comma|tab|semicolon|vertical bar)s\.",
     lambda m: f"按 {m['enc']} 编码读取为文本，列之间以{DELIMITERS_ZH[m['delim']]}分隔。"),
    (r"(?P<n>\d+) row\(s\) had more fields than the header's (?P<m>\d+) and were left out\.",
     "{n} 行的字段数多于表头的 {m} 个，已被剔除。"),
    (r"(?P<n>\d+) column\(s\) written with decimal commas \(12,5\) were read as numbers\.",
     "{n} 列用小数逗号书写（12,5），已按数值读取。"),
    (r"(?P<n>\d+) column\(s\) had no name and were called “column N”\.",
     "{n} 列没有列名，已命名为“column N”。"),
    (r"(?P<n>\d+) column name\(s\) were longer than (?P<max>\d+) characters and were "
     r"shortened\.",
     "{n} 个列名超过 {max} 个字符，已被截短。"),
    (r"Repeated column names were numbered: (?P<names>.*)\.", "重复的列名已编号：{names}。"),
    # the estimators (fit, pruning, prediction)
    (r"Cannot grow a tree from 1 sample \(n_samples = (?P<n>\d+)\); at least 2 samples "
     r"are needed\.",
     "无法用 1 个样本生长决策树（n_samples = {n}）；至少需要 2 个样本。"),
    (r"The sample weights sum to zero: nothing to learn from\.",
     "样本权重之和为零：没有可学习的内容。"),
    (rf"Feature {_QUOTED} has missing values, and ID3 has no rule for them\. Use "
     r"algorithm='c4\.5' \(fractional weights\) or 'cart' \(missing values go to the "
     r"better side\), or fill them in first\.",
     "特征“{name}”有缺失值，而 ID3 没有处理缺失值的规则。请使用 C4.5（按权重分配）或 CART"
     "（缺失值分到更好的一侧），或先填补缺失值。"),
    (rf"Feature {_QUOTED} has missing values, and missing='error' refuses them\. .*",
     "特征“{name}”有缺失值，而 missing='error' 不接受缺失值。请使用 missing='cart' 或 "
     "missing='c4.5'，或先填补缺失值。"),
    (r"criterion='absolute_error' does not support missing values; fill them in or "
     r"choose another criterion\.",
     "平均绝对误差准则（criterion='absolute_error'）不支持缺失值；请先填补缺失值或选择其他准则。"),
    (r"Multiway splits of a categorical feature with missing values need missing='c4\.5'\.",
     "类别特征含缺失值时，多路划分需要 missing='c4.5'。"),
    (r"The target values are too large: sums of y\*\*2 overflow double precision "
     r"\(largest \|y\| = (?P<v>\S+)\)\. Rescale y, for example to thousands or millions\.",
     "目标值太大：y² 之和超出双精度范围（最大的 |y| = {v}）。请缩放目标值，例如以千或百万为单位。"),
    (r"Some value\(s\) of y are negative which is not allowed for Poisson regression\.",
     "目标含有负值，泊松回归不允许负值。"),
    (r"Sum of y is not positive which is necessary for Poisson regression\.",
     "目标值之和不是正数，而泊松回归要求它为正。"),
    (r"Input y contains NaN or infinity\.", "目标 y 含有 NaN 或无穷大。"),
    (r"cv must be an int in \[2, n_samples=(?P<n>\d+)\]; got (?P<cv>.*)\.",
     "交叉验证的折数 cv 必须是 [2, n_samples={n}] 中的整数；当前为 {cv}。"),
    (r"Pessimistic error pruning counts misclassified samples; it needs a classifier, not "
     r"a regressor\.",
     "悲观剪枝统计误分类的样本，只适用于分类树，不适用于回归树。"),
    (rf"Feature {_QUOTED} is numeric; got (?P<v>.*)\.", "特征“{name}”是数值特征；得到的是 {v}。"),
    (rf"Feature {_QUOTED}: infinity is not a value a tree can route\.",
     "特征“{name}”：决策树无法处理无穷大的取值。"),
    # dtree.load_sklearn (a .skops file opened on the Data page) and pages.state.imported
    (r"(?P<name>.*) is (?P<kind>a pickle|a compressed \(joblib\?\) pickle), not a \.skops "
     r"file\. Loading a pickle .* Save the tree with skops instead: (?P<code>.*)",
     lambda m: "{} 是{}，不是 .skops 文件。加载 pickle（joblib 文件也是 pickle）可能运行其中的"
               "任意代码，所以 dtree 从不打开它。请改用 skops 保存决策树：{}".format(
                   m["name"], "pickle 文件" if m["kind"] == "a pickle"
                   else "压缩的（joblib？）pickle 文件", m["code"])),
    (r"(?P<name>.*) is an unknown format, not a \.skops file\. Save the tree with skops "
     r"instead: (?P<code>.*)",
     "{name} 不是 .skops 文件。请用 skops 保存决策树：{code}"),
    (r"(?P<name>.*) holds types dtree does not open: (?P<types>.*?)\. dtree trusts only .*",
     "{name} 包含 dtree 不打开的类型：{types}。dtree 只信任 scikit-learn 的 DecisionTree/"
     "ExtraTree 分类器和回归器（及其中的 NumPy 数组），因此文件中的任何内容都不会被加载。"),
    (r"The data file has no column named (?P<names>.*): the tree's features are (?P<f>.*)\.",
     "数据文件中没有名为 {names} 的列：决策树的特征是 {f}。"),
    (r"The tree was fitted on (?P<n>\d+) unnamed features: the data file needs .*",
     "这棵决策树是在 {n} 个未命名的特征上训练的：数据文件需要 {n} 个特征列（放在最前面，"
     "按顺序）和一个目标列。"),
    (r"The data file has no target column \(a column besides the tree's features\)\.",
     "数据文件没有目标列（决策树特征以外的列）。"),
    (r"The feature column\(s\) (?P<names>.*) are not numeric; a scikit-learn tree reads "
     r"numbers only\.",
     "特征列 {names} 不是数值；scikit-learn 的决策树只读取数值。"),
    (r"The target column (?P<name>.*) holds values that are not among the tree's "
     r"classes\.",
     "目标列 {name} 中有不属于决策树类别（classes_）的取值。"),
    (r"The target column (?P<name>.*) is not numeric, but the tree is a regressor\.",
     "目标列 {name} 不是数值，而这棵决策树是回归树。"),
    # dtree: splitter="hist" refuses what it cannot bin
    (r"splitter='hist' cannot be used here: (?P<why>.*)\. Use splitter='best'\.",
     lambda m: "这里不能使用 splitter='hist'：{}。请使用 splitter='best'。".format({
         "algorithm='j48' grows Weka's own tree": "algorithm='j48' 生长的是 Weka 自己的决策树",
         "multiway splits are not binned": "多路划分不做分箱",
         "missing='c4.5' splits rows into fractions": "missing='c4.5' 会把样本按比例拆分",
         "criterion='absolute_error' cannot be computed from bin sums":
             "criterion='absolute_error' 无法由各箱的统计量之和算出",
     }.get(m["why"], m["why"]))),
]
_MESSAGES = [(re.compile(pattern, re.S), zh_text) for pattern, zh_text in MESSAGES_ZH]


def message_zh(message) -> str:
    """The Chinese text of one of the engine's messages (the user's names and
    the numbers kept as they are), or the message unchanged if it is not a
    known one."""
    text = str(message)
    for pattern, template in _MESSAGES:
        m = pattern.fullmatch(text)
        if m:
            return template(m) if callable(template) else template.format(**m.groupdict())
    return text
