"""The engine's coded messages in Chinese: :data:`MESSAGES_ZH`, keyed by the
codes of ``dtree.MESSAGES`` (a ``CodedError``'s or a ``Note``'s ``code``),
filled with the message's ``values``.

The user's names and the numbers go over unchanged; a few values that are
the engine's own English phrases (what a refused file is, the delimiter,
why ``splitter='hist'`` or ``forced_splits`` does not apply, the side of a
forced split) have their Chinese in :data:`VALUES_ZH`, and a forced split's
path (``node``, "root → left") is worded by :func:`forced_path`.  A
``TreeFileError`` (a scikit-learn tree or ``.skops`` file that is not
opened) is worded from its codes by :func:`tree_file_error`, with
:data:`TREE_FILE_ZH` and :data:`PROBLEMS_ZH`.
"""

from __future__ import annotations

from .. import PROBLEMS, TREE_FILE_MESSAGES, TreeFileError, problem_text

__all__ = ["MESSAGES_ZH", "VALUES_ZH", "TREE_FILE_ZH", "PROBLEMS_ZH", "message",
           "tree_file_error", "forced_path"]

MESSAGES_ZH = {
    # the estimators
    "one_sample": "无法用 1 个样本生长决策树（n_samples = {n_samples}）；至少需要 2 个样本。",
    "zero_weight": "样本权重之和为零：没有可学习的内容。",
    "missing_id3": ("特征“{name}”有缺失值，而 ID3 没有处理缺失值的规则。请使用 C4.5（按权重分配）或 CART"
                    "（缺失值分到更好的一侧），或先填补缺失值。"),
    "missing_refused": ("特征“{name}”有缺失值，而 missing='error' 不接受缺失值。请使用 missing='cart'"
                        "（缺失值分到更好的一侧）或 missing='c4.5'（按权重分配），或先填补缺失值。"),
    "missing_refused_regression": ("特征“{name}”有缺失值，而 missing='error' 不接受缺失值。请使用 "
                                   "missing='cart'（缺失值分到更好的一侧），或先填补缺失值。"),
    "absolute_error_missing": ("平均绝对误差准则（criterion='absolute_error'）不能与 "
                               "missing='c4.5'（缺失值的行按权重分到各分支）一起使用；请使用 "
                               "missing='cart'（缺失值分到更好的一侧），或先填补缺失值。"),
    "multiway_missing": "类别特征含缺失值时，多路划分需要 missing='c4.5'。",
    "hist_refused": "这里不能使用 splitter='hist'：{why}。请使用 splitter='best'。",
    "sparse_refused": "这里不能使用稀疏矩阵 X：{why}。请传入稠密数组（X.toarray()）或 DataFrame。",
    "y_not_finite": "目标 y 含有 NaN 或无穷大。",
    "x_infinite": ("输入 {what} 含有无穷大（最早在第 {column} 列）；超出 float32 范围的值也算作无穷大。"
                   "请替换这些值，或把它们标为缺失（NaN）。"),
    "continuous_labels": "未知的标签类型：连续值。分类树需要离散的类别标签；数值目标请用回归树。",
    "y_too_large": ("目标值太大：y² 之和超出双精度范围（最大的 |y| = {largest:.3g}）。"
                    "请缩放目标值，例如以千或百万为单位。"),
    "poisson_negative": "目标含有负值，泊松回归不允许负值。",
    "poisson_sum": "目标值之和不是正数，而泊松回归要求它为正。",
    "bad_cv": "交叉验证的折数 cv 必须是 [2, n_samples={n_samples}] 中的整数；当前为 {cv!r}。",
    "multi_output_refused": ("{what} 只适用于单个目标，而这棵树有多个输出（y 有不止一列）。"
                             "请为每个目标列分别生长一棵树，或使用默认的 CART 设置。"),
    "multi_output_categorical": ("特征“{name}”是类别特征；多输出的树（y 有不止一列）只划分数值特征。"
                                 "请先把它编码为数值（独热编码或序数编码）。"),
    "ebp_unseen_label": "y 含有模型从未见过的类别“{label}”：X 和 y 必须是训练数据。",
    "ebp_other_weight": ("X 和 y 的权重之和为 {weight:g}，而这棵树是在权重 {root:g} 上生长的："
                         "基于错误的剪枝需要训练数据。"),
    "ebp_other_counts": "X 和 y 不能重现树中各结点的类别计数：基于错误的剪枝需要拟合这棵树时用的数据。",
    "pep_regressor": "悲观剪枝统计误分类的样本，只适用于分类树，不适用于回归树。",
    # forced_splits ({node}: the forced split's path, in Chinese)
    "forced_refused": "这里不能使用 forced_splits：{why}。",
    "forced_not_json": "forced_splits 不是有效的 JSON：{detail}。",
    "forced_too_long": "forced_splits 的 JSON 文本有 {size:,} 个字符，超过 dtree 读取的上限 {limit:,} 个。",
    "forced_too_deep": "forced_splits 的结点“{node}”：强制划分嵌套超过 {limit} 层。",
    "forced_too_many": "forced_splits 含有超过 {limit:,} 个强制划分。",
    "forced_not_object": ("forced_splits 的结点“{node}”：强制划分应是含有 'feature' 的字典（JSON 对象）；"
                          "得到的是 {got}。"),
    "forced_unknown_key": ("forced_splits 的结点“{node}”：未知的键 {keys}。强制划分含有 'feature'，"
                           "以及 'threshold'（数值特征）、'categories'（子集划分）或 'branches'（多路划分），"
                           "和 'left'/'right'。"),
    "forced_no_feature": "forced_splits 的结点“{node}”：没有给出 'feature'。",
    "forced_unknown_feature": ("forced_splits 的结点“{node}”：{feature!r} 不是 X 的特征"
                               "（请给出 0 到 {last} 的编号或特征名）。"),
    "forced_bad_threshold": "forced_splits 的结点“{node}”：阈值 {threshold!r} 不是有限的数。",
    "forced_numeric_form": ("forced_splits 的结点“{node}”：“{name}”是数值特征；它的划分用 'threshold'"
                            "（x <= 阈值的样本分到左侧），而不是 'categories' 或 'branches'。"),
    "forced_subset_form": ("forced_splits 的结点“{node}”：“{name}”是类别特征，划分为两组（multiway=False）；"
                           "它的划分用 'categories'（分到左侧的类别组成的非空列表），而不是 'threshold' 或 "
                           "'branches'。"),
    "forced_multiway_form": ("forced_splits 的结点“{node}”：“{name}”是类别特征，每个类别一个分支"
                             "（multiway=True）；它的划分只用 'branches'：从类别（每个至多一次）到其下的强制划分"
                             "或 null 的字典。"),
    "forced_unknown_category": "forced_splits 的结点“{node}”：{category!r} 不是“{name}”的类别。",
    "forced_max_depth": ("forced_splits 的结点“{node}”：该结点的深度为 {depth}，而 max_depth={max_depth} "
                         "不允许划分这个深度的结点。"),
    "forced_leaf_budget": ("forced_splits 含有 {n} 个强制划分，超过 max_leaf_nodes={max_leaf_nodes} "
                           "允许的 {budget} 次划分。"),
    "forced_empty_side": "forced_splits 的结点“{node}”：按“{name}”的这个划分使{side}分支没有样本。",
    "forced_one_category": ("forced_splits 的结点“{node}”：只有 {n} 个“{name}”的类别到达该结点；"
                            "多路划分至少需要两个。"),
    "forced_min_samples_split": ("forced_splits 的结点“{node}”：该结点有 {n} 个样本，少于划分所需的 {min} 个"
                                 "（min_samples_split，至少为 2 × min_samples_leaf）。"),
    "forced_min_samples_leaf": ("forced_splits 的结点“{node}”：这个划分使{side}分支只有 {n} 个样本，"
                                "少于 min_samples_leaf={min}。"),
    "forced_min_weight_leaf": ("forced_splits 的结点“{node}”：这个划分使{side}分支的权重为 {weight:.4g}，"
                               "小于 min_weight_fraction_leaf 所要求的 {min:.4g}。"),
    # the exhaustive depth-2 search
    "lookahead_rows": "穷举搜索深度为 2 的树最多处理 {limit:,} 行；这张表有 {n:,} 行。",
    "lookahead_candidates": ("穷举搜索深度为 2 的树最多比较 {limit:,} 个候选划分；这张表有 {n:,} 个"
                             "（阈值和类别分组）。请减少特征。"),
    "lookahead_work": ("穷举搜索深度为 2 的树需要 {work:,} 次乘法（{n:,} 行 × {candidates:,}² 个候选划分 × "
                       "（{classes} 个类别 + 1）），超过约一秒可完成的 {limit:,} 次。请减少特征或行数。"),
    "lookahead_categories": ("特征“{name}”有 {n} 个类别；穷举搜索最多对 {limit} 个类别分组"
                             "（k 个类别有 2^(k−1) − 1 种分组）。"),
    "lookahead_missing": "特征“{name}”有缺失值；穷举搜索只接受完整的行。",
    "lookahead_nothing": "没有可搜索的划分：只有一个类别，或者没有能划分这些行的特征。",
    "sample_not_numeric": "特征“{name}”是数值特征；得到的是 {value!r}。",
    "sample_infinite": "特征“{name}”：决策树无法处理无穷大的取值。",
    # reading a table: errors
    "empty_file": "文件是空的（0 字节）。",
    "blank_file": "文件只有空白字符：其中没有表格。",
    "not_a_table": "这个文件是 {what}，不是表格。请上传 CSV、TSV、Excel（.xlsx）、Parquet 或 ARFF 文件。",
    "old_excel": "这是旧版的二进制 Excel（.xls）或 Office 文件，dtree 不能读取。请在 Excel 中另存为 .xlsx 或 CSV。",
    "fake_excel": "这个文件的名字像 Excel 工作簿，但它不是（.xlsx 文件是 zip 压缩包）。请在 Excel 中重新保存。",
    "fake_parquet": "这个文件名为 .parquet，但不是 Parquet 文件。",
    "no_columns": "文件中没有找到任何列。",
    "no_rows": "文件只有表头，没有数据行。",
    "broken_zip": "文件开头像 zip 压缩包，但已损坏。",
    "zip_not_excel": "这是 zip 压缩包，不是表格。请解压后上传其中的 CSV 或 Excel 文件。",
    "workbook_too_big": "这个工作簿解压后有 {mb:.0f} MB，超过 dtree 接受的上限 {max_mb:.0f} MB。",
    "needs_openpyxl": "读取 Excel 文件需要 openpyxl 包（pip install openpyxl）。",
    "excel_unreadable": "无法读取这个 Excel 文件（{exc}）。",
    "no_sheets": "工作簿中没有工作表。",
    "empty_sheet": "工作簿的第一个工作表是空的。",
    "parquet_unreadable": "无法读取这个 Parquet 文件（{exc}）。",
    "binary_file": "这个文件看起来不是文本：其中含有二进制数据。请上传 CSV、TSV、Excel（.xlsx）、Parquet 或 ARFF 文件。",
    "no_header": "文件没有表头行。",
    # (the parser's own detail, from Python's csv module or pandas, stays as it is)
    "bad_header": "无法读取表头行：{detail}。",
    "unparsable": "无法把文件解析为表格：{detail}",
    # reading Weka's ARFF
    "arff_too_big": ("这个 ARFF 文件有 {mb:.0f} MB；ARFF 文件逐行读取，上限为 {max_mb:.0f} MB。"
                     "更大的文件请另存为 CSV（Weka Explorer 中选择 Save，CSV 格式）后上传。"),
    "arff_too_many_values": ("这个 ARFF 文件的取值超过 {max:,} 个（已读 {rows:,} 行，每行 {columns:,} 个属性），"
                             "超过 dtree 从 ARFF 读取的上限。"),
    "arff_unreadable": "无法读取这个 ARFF 文件的第 {line} 行：“{text}”。",
    "arff_layout": ("无法把第 {line} 行作为 ARFF 文件的一部分读取：“{text}”。ARFF 文件先是 @relation，然后是各 "
                    "@attribute 行，再是 @data 和每行一个样本；取值之间用逗号分隔，含逗号的取值要加引号。"),
    "arff_no_data": "没有找到 @data 行：这不是 ARFF 文件，或者是没有样本的 ARFF 文件。",
    "arff_attribute": "第 {line} 行不是 ARFF 能识别的 @attribute 声明：“{text}”。",
    "arff_attribute_type": ("第 {line} 行声明了 ARFF 没有的类型：“{text}”。ARFF 的类型有 numeric、integer、real、"
                            "string、date 和 {{取值列表}}。"),
    "arff_date": ("第 {line} 行声明了日期属性，dtree 不读取日期属性：“{text}”。请删除它或把它转为数值"
                  "（Weka 的过滤器都能做到），再重新上传。"),
    "arff_relational": "第 {line} 行声明了关系属性（每行中嵌套一张表），dtree 不读取这种属性：“{text}”。",
    "arff_repeated_name": "第 {line} 行再次声明了已有的属性名：“{text}”。",
    "arff_repeated_value": "名义属性“{name}”把取值“{value}”声明了两次。",
    "arff_undeclared_value": "第 {line} 行有一个其名义属性没有声明的取值：“{text}”。",
    "arff_not_a_number": "第 {line} 行在数值属性上有一个不是数的取值：“{text}”。",
    "arff_field_count": "第 {line} 行的取值个数与声明的属性个数不符：“{text}”。",
    "arff_weights": "第 {line} 行末尾有花括号中的样本权重，dtree 不读取样本权重：“{text}”。请删除权重后重新上传。",
    # reading a table: notes
    "read_as_excel": "这个文件是 Excel 工作簿（不论文件名如何），已按工作簿读取。",
    "first_sheet": "工作簿有 {n} 个工作表；读取的是第一个：“{name}”。",
    "read_as_text": "按 {encoding} 编码读取为文本，列之间以{delimiter}分隔。",
    "read_as_arff": ("按 {encoding} 编码读取为 Weka ARFF 文件：关系“{relation}”，{n} 个属性，其中 {nominal} 个名义属性"
                     "（保留声明的取值及其顺序）；? 表示缺失值。"),
    "arff_strings": "{n} 个字符串属性（{names}）按文本读取：与 CSV 中的列一样，按其取值推断类型。",
    "arff_sparse": "{n} 行以稀疏格式书写：按 ARFF 的规定，省略的取值为 0（名义属性则为其声明的第一个取值）。",
    "ragged_rows": "{rows} 行的字段数多于表头的 {fields} 个，已被剔除。",
    "decimal_commas": "{n} 列用小数逗号书写（12,5），已按数值读取。",
    "unnamed_columns": "{n} 列没有列名，已命名为“column N”。",
    "long_names": "{n} 个列名超过 {max} 个字符，已被截短。",
    "repeated_names": "重复的列名已编号：{names}。",
    # preparing a table: errors
    "id3_too_few_complete": "ID3 没有处理缺失值的规则，而不含缺失值的训练样本不足 2 个。请选择能处理缺失值的 C4.5 或 CART。",
    "no_target": "请选择目标列。",
    "no_features": "请至少选择一个特征列（目标列以外的列）。",
    "empty_target": "目标列“{name}”没有任何取值：全部缺失。",
    "no_usable_feature": "所选特征都没有可用的取值。",
    "too_few_rows": "剔除目标值缺失的样本后只剩 {n} 个可用样本；决策树至少需要 2 个。",
    "too_many_classes": ("目标“{name}”有 {n} 个不同的取值，类别太多，无法显示（最多 {max} 个）。它看起来像编号或"
                         "测量值：请选择其他目标列；如果它是数值，可以按回归处理。"),
    "no_training_rows": "训练集的样本太少：请降低测试集比例。",
    "text_target": "目标“{name}”含有文本取值，回归树无法预测它。请选择分类。",
    "too_many_categories": "“{name}”有 {n:,} 个类别，超过 {max:,} 个：它看起来像编号。请不要使用该列，或把它当作数值特征。",
    # preparing a table: notes
    "id3_left_out": "ID3 没有处理缺失值的规则：{n} 个含缺失值的样本被剔除（C4.5 和 CART 会使用它们）。",
    "missing_target": "{rows} 个目标值缺失的样本被剔除。",
    "missing_features": ("{n} 个样本在所选特征上有缺失值。CART 把它们分到增益更大的一侧，C4.5 和 J48 按权重把它们"
                         "分到各个分支，ID3 剔除它们。"),
    "single_class": "目标只有一个类别：决策树只有一个叶结点。",
    "text_as_missing": "“{name}”：{n} 个不是数值的取值按缺失值处理。",
    "no_numbers": "以下列不含数值，已被剔除（把它们标为类别特征即可使用）：{names}。",
    "infinite_values": "“{name}”：{n} 个无穷大的值按缺失值处理。",
    "many_categories": "“{name}”有 {n} 个类别：ID3 和 C4.5 为每个类别建一个分支，在它上面的划分会非常宽。",
    "mixed_column": ("“{name}”混有数值和文本（例如“{example}”），按类别特征处理。把它从类别特征中移除，"
                     "文本取值就会按缺失值处理。"),
    # a tree's data file (pages.state.imported)
    "data_no_column": "数据文件中没有名为 {names} 的列：决策树的特征是 {features}。",
    "data_unnamed": "这棵决策树是在 {n} 个未命名的特征上训练的：数据文件需要 {n} 个特征列（放在最前面，按顺序）和一个目标列。",
    "data_no_target": "数据文件没有目标列（决策树特征以外的列）。",
    "data_not_numeric": "特征列 {names} 不是数值；scikit-learn 的决策树只读取数值。",
    "data_unknown_classes": "目标列 {name} 中有不属于决策树类别（classes_）的取值。",
    "data_target_not_numeric": "目标列 {name} 不是数值，而这棵决策树是回归树。",
}

#: The Chinese of the values that are the engine's own English phrases:
#: value name -> {English: Chinese}.
VALUES_ZH = {
    # what dtree.tables.io says a non-table file is
    "what": {
        "a PNG image": "PNG 图片", "a JPEG image": "JPEG 图片", "a GIF image": "GIF 图片",
        "a PDF document": "PDF 文档", "a gzip archive": "gzip 压缩包",
        "a bzip2 archive": "bzip2 压缩包", "a 7-Zip archive": "7-Zip 压缩包",
        "a RAR archive": "RAR 压缩包", "a program (ELF executable)": "程序（ELF 可执行文件）",
        "a Windows program": "Windows 程序",
        "a Python pickle (never loaded here)": "Python pickle 文件（这里从不加载）",
    },
    "delimiter": {"comma": "逗号", "tab": "制表符", "semicolon": "分号", "vertical bar": "竖线"},
    # why splitter="hist" does not apply
    "why": {
        "algorithm='j48' grows Weka's own tree": "algorithm='j48' 生长的是 Weka 自己的决策树",
        "multiway splits are not binned": "多路划分不做分箱",
        "missing='c4.5' splits rows into fractions": "missing='c4.5' 会把样本按比例拆分",
        "criterion='absolute_error' cannot be computed from bin sums":
            "criterion='absolute_error' 无法由各箱的统计量之和算出",
        # why forced_splits does not apply
        "splitter='hist' searches bins, not the rows' values":
            "splitter='hist' 在分箱上搜索，而不是在样本的取值上",
    },
    # the side of a forced split (a multiway branch is its category, unchanged)
    "side": {"left": "左", "right": "右"},
}

#: The steps of a forced split's path ("root → left → right"); a multiway
#: branch's step is its category, which stays as it is.
_PATH_ZH = {"root": "根", "left": "左", "right": "右"}


def forced_path(path: str, lang: str = "en") -> str:
    """A forced split's path (a ``CodedError``'s ``node`` value, e.g.
    ``"root → left"``) in ``lang``."""
    if lang != "zh":
        return path
    return " → ".join(_PATH_ZH.get(step, step) for step in path.split(" → "))


def _value_zh(name, value):
    if not isinstance(value, str):
        return value
    if name == "node":
        return forced_path(value, "zh")
    return VALUES_ZH[name].get(value, value) if name in VALUES_ZH else value


def message(said, lang: str = "en") -> str:
    """One of the engine's messages (an exception or a note) in ``lang``:
    a coded one (``code`` and ``values``) worded from its code, anything
    else as its English text.  Plain text: escape it for Markdown."""
    if lang != "zh":
        return str(said)
    if isinstance(said, TreeFileError):
        return tree_file_error(said.code, said.where, said.values, lang)
    template = MESSAGES_ZH.get(getattr(said, "code", None))
    values = getattr(said, "values", None)
    if template is None or not isinstance(values, dict):
        return str(said)
    shown = {k: _value_zh(k, v) for k, v in values.items()}
    return template.format(**shown)


#: The Chinese wording of each ``TreeFileError`` code (the English is the
#: engine's own, ``dtree.TREE_FILE_MESSAGES``); the fields are the error's
#: ``where`` and ``values``.
TREE_FILE_ZH = {
    "pickle": ("{where} 是{kind}，不是 .skops 文件。加载 pickle（joblib 文件也是 pickle）可能运行其中的"
               "任意代码，所以 dtree 从不打开它。请改用 skops 保存决策树：skops.io.dump(model, 'tree.skops')。"),
    "not_skops": "{where} 是未知格式，不是 .skops 文件。请改用 skops 保存决策树：skops.io.dump(model, 'tree.skops')。",
    "file_too_big": "{where} 超过 {limit}，这是 dtree 从一个文件读取的上限（可调大 SkopsLimits.max_file_bytes）。",
    "zip_broken": "{where} 是损坏的或不受支持的 zip 文件：{part} {problem_text}。",
    "zip_unreadable": "{where} 是损坏的 zip 文件；zip 读取器报告：{detail}。",
    "too_many_members": "{where} 含有 {count} 个文件；一棵树的 .skops 文件只含几个（最多读取 {limit} 个）。",
    "member_too_big": "{where}：其中的 {member} 解压后超过 {limit}（可调大 SkopsLimits.max_member_bytes）。",
    "total_too_big": "{where} 解压后总共超过 {limit}（可调大 SkopsLimits.max_total_bytes）。",
    "member_missing": "{where} 引用了文件中不存在的成员 {member}。",
    "no_schema": "{where} 是 zip 文件，但不是 .skops 文件（没有 schema.json）。",
    "schema_not_json": "{where} 不是 .skops 文件：其 schema.json 不是 JSON；JSON 读取器报告：{detail}。",
    "schema_too_deep": "{where}：其结构嵌套超过 {limit} 层；scikit-learn 的决策树远用不了这么多。",
    "schema_too_big": "{where}：其结构含有超过 {limit} 个条目（可调大 SkopsLimits.max_schema_entries）。",
    "types_refused": ("{where} 含有 dtree 不打开的类型：{types}。dtree 只信任 scikit-learn 的 DecisionTree/ExtraTree "
                      "分类器和回归器（及其中的 NumPy 数组），所以文件中的其他内容都不会被加载。"),
    "not_a_tree": "{where} 保存的是 {kind}，不是 scikit-learn 的决策树。",
    "malformed": "{where} 不是格式正确的 .skops 文件：{part} {problem_text}。",
    "too_slow": "读取 {where} 超过了 {limit} 秒，已停止读取（可调大 SkopsLimits.max_seconds）。",
    "unreadable": "无法读取 {where}；内部错误为：{detail}。",
    "over_limit": "{where}：其{what}为 {value}，超过 dtree 打开的上限 {limit}（可调大 SkopsLimits.{field}）。",
    "bad_attribute": "{where}：其{what}{problem_text}。",
    "multi_output": ("{where} 预测 {n_outputs} 个输出；dtree 只打开单个输出的 scikit-learn 决策树"
                     "（多个输出请直接用 dtree 的估计器拟合）。请打开在单个目标上训练的决策树。"),
    "no_nodes": "{where}：其决策树没有结点。",
    "bad_child": "{where}：结点 {node} 的子结点编号为 {child}，不是这棵树的结点（编号应在 1 到 {last} 之间）。",
    "half_leaf": "{where}：结点 {node} 只有一个子结点；一个结点要么有两个子结点，要么没有。",
    "child_before_parent": "{where}：结点 {node} 是结点 {parent} 的子结点，但子结点的编号必须大于父结点（这棵树有环）。",
    "two_parents": "{where}：结点 {node} 有 {count} 个父结点；除根结点外每个结点恰有一个。",
    "orphan": "{where}：结点 {node} 没有父结点；除根结点外每个结点恰有一个。",
    "root_is_child": "{where}：根结点（结点 0）是结点 {parent} 的子结点。",
    "bad_feature": "{where}：结点 {node} 按特征 {feature} 划分，但这棵树的特征编号为 0 到 {last}。",
    "bad_threshold": "{where}：结点 {node} 的阈值 {threshold} 无法划分样本。",
    "bad_value": "{where}：结点 {node} 的{what}不是有限的数。",
    "bad_samples": "{where}：结点 {node} 的{what}为 {count}，不等于其子结点之和。",
    "value_shape": "{where}：其结点取值的形状为 {shape}，但 {node_count} 个结点、{n_classes} 个类别需要 {expected}。",
    "classes_mismatch": "{where}：它列出 {n_names} 个类别，但其结点保存 {n_classes} 个类别的计数。",
    "negative_weight": "{where}：结点 {node} 的加权样本数为 {weight}，小于零。",
    "bad_setting": "{where}：其参数 {name} = {value} 无效（scikit-learn 不接受，或 dtree 无法重现），因此不打开这棵树。",
    "data_x_without_y": "{where}：请同时给出 X 和 y（训练数据），或都不给。",
    "data_n_features": "{where}：X 有 {given} 个特征，但这棵树是用 {expected} 个特征训练的。",
    "data_unknown_label": "{where}：y 中有标签 {label}，它不是这棵树的类别（classes_）之一。",
    "data_rows_differ": ("{where}：X 和 y 看起来不是训练这棵树的数据：结点 {node} 保存了 {stored} 个训练样本，"
                         "但 X 中有 {seen} 行到达这里。请给出与训练时完全相同的数据（同样的行、列和样本权重）。"),
    "data_counts_differ": ("{where}：X 和 y 看起来不是训练这棵树的数据：各结点的类别计数与树中保存的不同。"
                           "请给出与训练时完全相同的标签（和样本权重）。"),
    "data_weights_differ": "{where}：样本权重与训练这棵树时的不同：请给出与 fit 时相同的 sample_weight。",
    "over_budget": ("{where} 所需的{resource}超过了本服务器给一次上传的上限（{limit}），因此没有打开。"
                    "请在 Python 中用 dtree.load_sklearn 打开它。"),
}

#: The Chinese of ``dtree.PROBLEMS``.
PROBLEMS_ZH = {
    "encrypted": "已加密",
    "compression": "使用压缩方法 {method}，dtree 不读取这种压缩",
    "longer": "解压后比声明的长",
    "shorter": "解压后比声明的短",
    "not_utf8": "不是 UTF-8 文本",
    "not_whole_number": "是 {type}，而这里应为整数",
    "below_one": "为 {value}，小于一",
    "not_labels": "不是类别标签的列表",
    "names_count": "含有 {count} 个名称，但有 {expected} 个特征",
    "not_a_node": "不是 skops 结点",
    "no_class": "没有指明类型",
    "loader_refused": "由 {loader} 加载，dtree 不用它读取普通值",
    "no_content": "缺少其类型应有的内容",
    "wrong_kind": "是以 {stored} 形式保存的 {kind}",
    "not_json": "含有的文本不是单个 JSON 值",
    "bad_keys": "的键与其类型不符",
    "bad_shape": "含有 {count} 个值，但其形状需要 {expected} 个",
    "not_plain": "含有普通值以外的内容",
    "bad_random_state": "不是随机数生成器的状态",
    "not_npy": "不是 NumPy 数组文件",
    "not_numbers": "的取值类型为 {dtype}，不是数",
    "bad_size": "声明了 {declared} 字节的数据，实际只有 {held} 字节",
    "bad_tree_args": "不是单输出的 (n_features, n_classes, n_outputs)",
    "features_differ": "有 {count} 个特征，而估计器有 {expected} 个",
    "bad_nodes": "不是由 {count} 个结点记录组成的数组",
    "bad_depth": "不是这棵树的深度",
    "not_fitted": "缺失（这棵树训练过吗？）",
    "bad_name": "不是 dtree 接受的属性",
    "repeated_labels": "多次列出类别 {label}",
}

_ZH_TERMS = {"number of features (n_features_in_)": "特征数（n_features_in_）",
             "number of classes": "类别数", "node count": "结点数", "number of outputs": "输出数",
             "impurity": "不纯度", "weighted sample count": "加权样本数", "value": "取值",
             "sample count": "样本数",
             "sample count (below one)": "样本数（小于一）", "time": "时间", "memory": "内存"}


def tree_file_error(code: str, where: str, values: dict, lang: str = "en") -> str:
    """Why a scikit-learn tree could not be opened (a ``TreeFileError``'s
    ``code``, ``where`` and ``values``), in ``lang``.  Plain text: escape it
    for Markdown before showing it."""
    if lang == "zh":
        shown = {k: _ZH_TERMS.get(v, v) if isinstance(v, str) else v for k, v in values.items()}
        return TREE_FILE_ZH[code].format(where=where, **shown,
                                         **problem_text(shown, PROBLEMS_ZH))
    return TREE_FILE_MESSAGES[code].format(where=where, **values,
                                           **problem_text(values, PROBLEMS))
