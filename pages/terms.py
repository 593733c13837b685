"""Chinese names of the app's fixed vocabulary, in the seeds' terms.

The English names live with the code that defines them (criteria and
presets in dtree.prepare, datasets in dtree.io, stop reasons in
dtree._grow); the plain modules stay in English, so the pages look the
Chinese ones up here (falling back to the English name for anything new).
"""

CRITERIA_ZH = {
    "gini": "基尼系数（Gini 指数）",
    "entropy": "信息熵（信息增益）",
    "gain_ratio": "信息增益比（C4.5）",
    "misclassification": "误分类率",
    "taylor2": "熵的二阶泰勒近似",
    "squared_error": "均方误差（方差）",
    "absolute_error": "平均绝对误差（中位数）",
    "friedman_mse": "Friedman 均方误差",
    "poisson": "泊松偏差",
}

GROWTH_ZH = {"depth_first": "深度优先", "best_first": "最优优先",
             "breadth_first": "广度优先"}

PRESETS_ZH = {
    "CART": "CART：二叉划分（一个阈值，或把类别分成两组），默认用基尼系数（也可选其他准则）。"
            "缺失值分到增益更大的一侧。",
    "ID3": "ID3：信息增益（信息熵）。类别特征每个取值一个分支；数值特征按阈值划分。"
           "ID3 没有处理缺失值的规则：含缺失值的样本被剔除。",
    "C4.5": "C4.5：信息增益比 = 信息增益 ÷ 分裂信息，在信息增益不低于平均值的候选划分中选取。"
            "类别特征每个取值一个分支；数值特征按阈值划分。含缺失值的样本按权重分到各分支。",
}

#: Built-in dataset title -> (Chinese title, Chinese description).
DATASETS_ZH = {
    "Iris": ("鸢尾花 Iris", "150 朵鸢尾花，4 项测量，3 个品种"),
    "Wine": ("葡萄酒 Wine", "178 种葡萄酒，13 项化学测量，3 个品种"),
    "Penguins": ("企鹅 Penguins", "344 只帕尔默企鹅：身体测量、岛屿、性别；有缺失值"),
    "Cats (lecture example)": ("猫（课程示例）", "10 只动物，3 个是/否特征"),
    "Loan applications (Li Hang)": ("贷款申请（李航）",
                                    "《统计学习方法》表5.1：15 位申请人，4 个类别特征"),
    "PlayTennis (Quinlan, Mitchell)": ("打网球 PlayTennis（Quinlan、Mitchell）",
                                       "14 天，4 个天气特征"),
    "Watermelon 2.0 (Zhou Zhihua)": ("西瓜数据集 2.0（周志华）",
                                     "《机器学习》表4.1：17 个西瓜，6 个特征"),
    "Watermelon 2.0α, missing values (Zhou Zhihua)": (
        "西瓜数据集 2.0α，含缺失值（周志华）", "《机器学习》表4.4：表4.1 加上缺失值"),
}

#: Why a leaf is a leaf (dtree._grow.STOP_REASONS).
STOP_REASONS_ZH = {
    "max_depth": "达到 max_depth（最大深度）",
    "min_samples_split": "样本数少于 min_samples_split",
    "min_samples_leaf": "样本数少于 2 × min_samples_leaf",
    "min_weight_fraction_leaf": "权重不足以分出两个满足 min_weight_fraction_leaf 的叶结点",
    "pure": "纯结点（不纯度为 0）",
    "no valid split": "没有可行的划分",
    "min_impurity_decrease": "不纯度减少量低于 min_impurity_decrease",
    "leaf budget": "叶结点数已达 max_leaf_nodes 上限",
    "no split": "没有划分",
    "leaf": "叶结点",
}

TASKS_ZH = {"classification": "分类", "regression": "回归"}


def zh(table: dict, key, english: str) -> str:
    """``table[key]``, or the English name for a key the table does not know."""
    return table.get(key) or english
